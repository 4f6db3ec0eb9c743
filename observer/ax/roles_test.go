package ax

import (
	"testing"

	"github.com/axbus/axbus/observer"
)

func TestNormaliseRole(t *testing.T) {
	for _, tc := range []struct {
		role, subrole string
		want          observer.Role
	}{
		{"AXWindow", "AXStandardWindow", observer.RoleWindow},
		{"AXWindow", "AXDialog", observer.RoleDialog},
		{"AXWindow", "AXSystemDialog", observer.RoleDialog},
		{"AXWindow", "AXFloatingWindow", observer.RoleWindow},
		{"AXSheet", "", observer.RoleSheet},
		{"AXButton", "", observer.RoleButton},
		{"AXButton", "AXToggle", observer.RoleToggleButton},
		{"AXCheckBox", "", observer.RoleCheckbox},
		{"AXCheckBox", "AXSwitch", observer.RoleSwitch},
		{"AXCheckBox", "AXToggle", observer.RoleToggleButton},
		{"AXRadioButton", "", observer.RoleRadio},
		{"AXRadioButton", "AXTabButton", observer.RoleTab},
		{"AXTextField", "", observer.RoleTextField},
		{"AXTextField", "AXSecureTextField", observer.RolePassword},
		{"AXSecureTextField", "", observer.RolePassword},
		{"AXTextField", "AXSearchField", observer.RoleSearchField},
		{"AXTextArea", "", observer.RoleTextArea},
		{"AXStaticText", "", observer.RoleText},
		{"AXHeading", "", observer.RoleHeading},
		{"AXLink", "", observer.RoleLink},
		{"AXImage", "", observer.RoleImage},
		{"AXList", "", observer.RoleList},
		{"AXTable", "", observer.RoleTable},
		{"AXOutline", "", observer.RoleOutline},
		{"AXRow", "", observer.RoleRow},
		{"AXRow", "AXOutlineRow", observer.RoleTreeItem},
		{"AXCell", "", observer.RoleCell},
		{"AXColumn", "", observer.RoleColumn},
		{"AXScrollArea", "", observer.RoleScrollArea},
		{"AXScrollBar", "", observer.RoleScrollBar},
		{"AXWebArea", "", observer.RoleWebArea},
		{"AXGroup", "", observer.RoleGroup},
		{"AXGroup", "AXApplicationDialog", observer.RoleDialog},
		{"AXGroup", "AXTabPanel", observer.RolePanel},
		{"AXSplitGroup", "", observer.RoleSplitGroup},
		{"AXSplitter", "", observer.RoleSeparator},
		{"AXToolbar", "", observer.RoleToolbar},
		{"AXMenuBar", "", observer.RoleMenuBar},
		{"AXMenuBarItem", "", observer.RoleMenuItem},
		{"AXMenu", "", observer.RoleMenu},
		{"AXMenuItem", "", observer.RoleMenuItem},
		{"AXMenuButton", "", observer.RoleMenuButton},
		{"AXComboBox", "", observer.RoleComboBox},
		{"AXPopUpButton", "", observer.RolePopUpButton},
		{"AXTabGroup", "", observer.RoleTabList},
		{"AXSlider", "", observer.RoleSlider},
		{"AXIncrementor", "", observer.RoleSpinButton},
		{"AXProgressIndicator", "", observer.RoleProgress},
		{"AXBusyIndicator", "", observer.RoleProgress},
		{"AXDisclosureTriangle", "", observer.RoleToggleButton},
		{"AXApplication", "", observer.RoleApplication},
		{"AXHelpTag", "", observer.RoleToolTip},
		{"AXUnknown", "", observer.RoleUnknown},
		{"AXNoSuchRole", "", observer.RoleUnknown},
		{"", "", observer.RoleUnknown},
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
