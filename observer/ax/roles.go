package ax

import "github.com/axbus/axbus/observer"

// subroleRoles maps AX subroles that decide the role on their own, whatever the AX role: a
// secure text field is a password field, a tab button a tab, a switch a switch.
var subroleRoles = map[string]observer.Role{
	"AXSecureTextField":        observer.RolePassword,
	"AXSearchField":            observer.RoleSearchField,
	"AXTabButton":              observer.RoleTab,
	"AXSwitch":                 observer.RoleSwitch,
	"AXToggle":                 observer.RoleToggleButton,
	"AXDialog":                 observer.RoleDialog,
	"AXSystemDialog":           observer.RoleDialog,
	"AXApplicationDialog":      observer.RoleDialog, // web role="dialog"
	"AXApplicationAlertDialog": observer.RoleAlert,
	"AXApplicationAlert":       observer.RoleAlert,
	"AXApplicationStatus":      observer.RoleStatusBar,
	"AXTabPanel":               observer.RolePanel,
	"AXOutlineRow":             observer.RoleTreeItem,
	"AXContentList":            observer.RoleList,
	"AXDefinitionList":         observer.RoleList,
}

// roles maps AX roles. AXUnknown is listed so that it counts as known.
var roles = map[string]observer.Role{
	"AXApplication":        observer.RoleApplication,
	"AXWindow":             observer.RoleWindow,
	"AXSheet":              observer.RoleSheet,
	"AXDialog":             observer.RoleDialog,
	"AXDrawer":             observer.RolePanel,
	"AXPopover":            observer.RolePanel,
	"AXHelpTag":            observer.RoleToolTip,
	"AXButton":             observer.RoleButton,
	"AXCheckBox":           observer.RoleCheckbox,
	"AXRadioButton":        observer.RoleRadio,
	"AXRadioGroup":         observer.RoleGroup,
	"AXDisclosureTriangle": observer.RoleToggleButton,
	"AXColorWell":          observer.RoleButton,
	"AXDockItem":           observer.RoleButton,
	"AXTextField":          observer.RoleTextField,
	"AXSecureTextField":    observer.RolePassword,
	"AXDateField":          observer.RoleTextField,
	"AXTimeField":          observer.RoleTextField,
	"AXTextArea":           observer.RoleTextArea,
	"AXStaticText":         observer.RoleText,
	"AXHeading":            observer.RoleHeading,
	"AXLink":               observer.RoleLink,
	"AXImage":              observer.RoleImage,
	"AXList":               observer.RoleList,
	"AXBrowser":            observer.RoleList,
	"AXTable":              observer.RoleTable,
	"AXGrid":               observer.RoleTable,
	"AXOutline":            observer.RoleOutline,
	"AXRow":                observer.RoleRow,
	"AXCell":               observer.RoleCell,
	"AXColumn":             observer.RoleColumn,
	"AXScrollArea":         observer.RoleScrollArea,
	"AXScrollBar":          observer.RoleScrollBar,
	"AXWebArea":            observer.RoleWebArea,
	"AXGroup":              observer.RoleGroup,
	"AXLayoutArea":         observer.RoleGroup,
	"AXLayoutItem":         observer.RoleGroup,
	"AXSplitGroup":         observer.RoleSplitGroup,
	"AXSplitter":           observer.RoleSeparator,
	"AXToolbar":            observer.RoleToolbar,
	"AXMenuBar":            observer.RoleMenuBar,
	"AXMenuBarItem":        observer.RoleMenuItem,
	"AXMenu":               observer.RoleMenu,
	"AXMenuItem":           observer.RoleMenuItem,
	"AXMenuButton":         observer.RoleMenuButton,
	"AXComboBox":           observer.RoleComboBox,
	"AXPopUpButton":        observer.RolePopUpButton,
	"AXTabGroup":           observer.RoleTabList,
	"AXSlider":             observer.RoleSlider,
	"AXIncrementor":        observer.RoleSpinButton,
	"AXProgressIndicator":  observer.RoleProgress,
	"AXBusyIndicator":      observer.RoleProgress,
	"AXLevelIndicator":     observer.RoleProgress,
	"AXRelevanceIndicator": observer.RoleProgress,
	"AXValueIndicator":     observer.RoleUnknown,
	"AXMatte":              observer.RoleFiller,
	"AXGrowArea":           observer.RoleFiller,
	"AXRuler":              observer.RoleUnknown,
	"AXRulerMarker":        observer.RoleUnknown,
	"AXSystemWide":         observer.RoleUnknown,
	"AXUnknown":            observer.RoleUnknown,
}

// NormaliseRole maps an AX role and subrole onto a normalised role. A subrole that names a role
// of its own wins (AXTextField/AXSecureTextField is a password field, AXRadioButton/AXTabButton a
// tab, AXWindow/AXDialog a dialog); an unknown role is RoleUnknown.
func NormaliseRole(axRole, subrole string) observer.Role {
	if r, ok := subroleRoles[subrole]; ok {
		return r
	}
	if r, ok := roles[axRole]; ok {
		return r
	}
	return observer.RoleUnknown
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
