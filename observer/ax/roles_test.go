package ax

import (
	"testing"

	"github.com/axbus/axbus/model"
)

func TestNormaliseRole(t *testing.T) {
	for _, tc := range []struct {
		role, subrole string
		want          model.Role
	}{
		{"AXWindow", "AXStandardWindow", model.RoleWindow},
		{"AXWindow", "AXDialog", model.RoleDialog},
		{"AXWindow", "AXSystemDialog", model.RoleDialog},
		{"AXWindow", "AXFloatingWindow", model.RoleWindow},
		{"AXSheet", "", model.RoleSheet},
		{"AXButton", "", model.RoleButton},
		{"AXButton", "AXToggle", model.RoleToggleButton},
		{"AXCheckBox", "", model.RoleCheckbox},
		{"AXCheckBox", "AXSwitch", model.RoleSwitch},
		{"AXCheckBox", "AXToggle", model.RoleToggleButton},
		{"AXRadioButton", "", model.RoleRadio},
		{"AXRadioButton", "AXTabButton", model.RoleTab},
		{"AXTextField", "", model.RoleTextField},
		{"AXTextField", "AXSecureTextField", model.RolePassword},
		{"AXSecureTextField", "", model.RolePassword},
		{"AXTextField", "AXSearchField", model.RoleSearchField},
		{"AXTextArea", "", model.RoleTextArea},
		{"AXStaticText", "", model.RoleText},
		{"AXHeading", "", model.RoleHeading},
		{"AXLink", "", model.RoleLink},
		{"AXImage", "", model.RoleImage},
		{"AXList", "", model.RoleList},
		{"AXTable", "", model.RoleTable},
		{"AXOutline", "", model.RoleOutline},
		{"AXRow", "", model.RoleRow},
		{"AXRow", "AXOutlineRow", model.RoleTreeItem},
		{"AXCell", "", model.RoleCell},
		{"AXColumn", "", model.RoleColumn},
		{"AXScrollArea", "", model.RoleScrollArea},
		{"AXScrollBar", "", model.RoleScrollBar},
		{"AXWebArea", "", model.RoleWebArea},
		{"AXGroup", "", model.RoleGroup},
		{"AXGroup", "AXApplicationDialog", model.RoleDialog},
		{"AXGroup", "AXTabPanel", model.RolePanel},
		{"AXSplitGroup", "", model.RoleSplitGroup},
		{"AXSplitter", "", model.RoleSeparator},
		{"AXToolbar", "", model.RoleToolbar},
		{"AXMenuBar", "", model.RoleMenuBar},
		{"AXMenuBarItem", "", model.RoleMenuItem},
		{"AXMenu", "", model.RoleMenu},
		{"AXMenuItem", "", model.RoleMenuItem},
		{"AXMenuButton", "", model.RoleMenuButton},
		{"AXComboBox", "", model.RoleComboBox},
		{"AXPopUpButton", "", model.RolePopUpButton},
		{"AXTabGroup", "", model.RoleTabList},
		{"AXSlider", "", model.RoleSlider},
		{"AXIncrementor", "", model.RoleSpinButton},
		{"AXProgressIndicator", "", model.RoleProgress},
		{"AXBusyIndicator", "", model.RoleProgress},
		{"AXDisclosureTriangle", "", model.RoleToggleButton},
		{"AXApplication", "", model.RoleApplication},
		{"AXHelpTag", "", model.RoleToolTip},
		{"AXUnknown", "", model.RoleUnknown},
		{"AXNoSuchRole", "", model.RoleUnknown},
		{"", "", model.RoleUnknown},
	} {
		if got := NormaliseRole(tc.role, tc.subrole); got != tc.want {
			t.Errorf("NormaliseRole(%q, %q) = %q, want %q", tc.role, tc.subrole, got, tc.want)
		}
	}
}

func TestKnownRole(t *testing.T) {
	for role, want := range map[string]bool{"AXButton": true, "AXUnknown": true, "AXButon": false, "": false} {
		if got := KnownRole(role); got != want {
			t.Errorf("KnownRole(%q) = %v, want %v", role, got, want)
		}
	}
}

func TestIsSecure(t *testing.T) {
	for _, tc := range []struct {
		role, subrole string
		want          bool
	}{
		{"AXTextField", "AXSecureTextField", true},
		{"AXSecureTextField", "", true},
		{"AXTextField", "", false},
		{"AXTextField", "AXSearchField", false},
		{"AXStaticText", "", false},
	} {
		if got := IsSecure(tc.role, tc.subrole); got != tc.want {
			t.Errorf("IsSecure(%q, %q) = %v, want %v", tc.role, tc.subrole, got, tc.want)
		}
	}
}
