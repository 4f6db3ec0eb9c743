package ax

import "github.com/axbus/axbus/model"

// subroleRoles maps AX subroles that decide the role on their own, whatever the AX role: a
// secure text field is a password field, a tab button a tab, a switch a switch.
var subroleRoles = map[string]model.Role{
	"AXSecureTextField":        model.RolePassword,
	"AXSearchField":            model.RoleSearchField,
	"AXTabButton":              model.RoleTab,
	"AXSwitch":                 model.RoleSwitch,
	"AXToggle":                 model.RoleToggleButton,
	"AXDialog":                 model.RoleDialog,
	"AXSystemDialog":           model.RoleDialog,
	"AXApplicationDialog":      model.RoleDialog, // web role="dialog"
	"AXApplicationAlertDialog": model.RoleAlert,
	"AXApplicationAlert":       model.RoleAlert,
	"AXApplicationStatus":      model.RoleStatusBar,
	"AXTabPanel":               model.RolePanel,
	"AXOutlineRow":             model.RoleTreeItem,
	"AXContentList":            model.RoleList,
	"AXDefinitionList":         model.RoleList,
}

// roles maps AX roles. AXUnknown is listed so that it counts as known.
var roles = map[string]model.Role{
	"AXApplication":        model.RoleApplication,
	"AXWindow":             model.RoleWindow,
	"AXSheet":              model.RoleSheet,
	"AXDialog":             model.RoleDialog,
	"AXDrawer":             model.RolePanel,
	"AXPopover":            model.RolePanel,
	"AXHelpTag":            model.RoleToolTip,
	"AXButton":             model.RoleButton,
	"AXCheckBox":           model.RoleCheckbox,
	"AXRadioButton":        model.RoleRadio,
	"AXRadioGroup":         model.RoleGroup,
	"AXDisclosureTriangle": model.RoleToggleButton,
	"AXColorWell":          model.RoleButton,
	"AXDockItem":           model.RoleButton,
	"AXTextField":          model.RoleTextField,
	"AXSecureTextField":    model.RolePassword,
	"AXDateField":          model.RoleTextField,
	"AXTimeField":          model.RoleTextField,
	"AXTextArea":           model.RoleTextArea,
	"AXStaticText":         model.RoleText,
	"AXHeading":            model.RoleHeading,
	"AXLink":               model.RoleLink,
	"AXImage":              model.RoleImage,
	"AXList":               model.RoleList,
	"AXBrowser":            model.RoleList,
	"AXTable":              model.RoleTable,
	"AXGrid":               model.RoleTable,
	"AXOutline":            model.RoleOutline,
	"AXRow":                model.RoleRow,
	"AXCell":               model.RoleCell,
	"AXColumn":             model.RoleColumn,
	"AXScrollArea":         model.RoleScrollArea,
	"AXScrollBar":          model.RoleScrollBar,
	"AXWebArea":            model.RoleWebArea,
	"AXGroup":              model.RoleGroup,
	"AXLayoutArea":         model.RoleGroup,
	"AXLayoutItem":         model.RoleGroup,
	"AXSplitGroup":         model.RoleSplitGroup,
	"AXSplitter":           model.RoleSeparator,
	"AXToolbar":            model.RoleToolbar,
	"AXMenuBar":            model.RoleMenuBar,
	"AXMenuBarItem":        model.RoleMenuItem,
	"AXMenu":               model.RoleMenu,
	"AXMenuItem":           model.RoleMenuItem,
	"AXMenuButton":         model.RoleMenuButton,
	"AXComboBox":           model.RoleComboBox,
	"AXPopUpButton":        model.RolePopUpButton,
	"AXTabGroup":           model.RoleTabList,
	"AXSlider":             model.RoleSlider,
	"AXIncrementor":        model.RoleSpinButton,
	"AXProgressIndicator":  model.RoleProgress,
	"AXBusyIndicator":      model.RoleProgress,
	"AXLevelIndicator":     model.RoleProgress,
	"AXRelevanceIndicator": model.RoleProgress,
	"AXValueIndicator":     model.RoleUnknown,
	"AXMatte":              model.RoleFiller,
	"AXGrowArea":           model.RoleFiller,
	"AXRuler":              model.RoleUnknown,
	"AXRulerMarker":        model.RoleUnknown,
	"AXSystemWide":         model.RoleUnknown,
	"AXUnknown":            model.RoleUnknown,
}

// NormaliseRole maps an AX role and subrole onto a normalised role. A subrole that names a role
// of its own wins (AXTextField/AXSecureTextField is a password field, AXRadioButton/AXTabButton a
// tab, AXWindow/AXDialog a dialog); an unknown role is RoleUnknown.
func NormaliseRole(axRole, subrole string) model.Role {
	if r, ok := subroleRoles[subrole]; ok {
		return r
	}
	if r, ok := roles[axRole]; ok {
		return r
	}
	return model.RoleUnknown
}

// KnownRole reports whether axRole is an AX role this package maps (AXUnknown included).
func KnownRole(axRole string) bool {
	_, ok := roles[axRole]
	return ok
}

// IsSecure reports whether the element is a secure text field, whose value is never read.
func IsSecure(axRole, subrole string) bool {
	return axRole == "AXSecureTextField" || subrole == "AXSecureTextField"
}
