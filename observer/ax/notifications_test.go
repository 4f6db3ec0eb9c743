package ax

import (
	"slices"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

func TestNormaliseNotification(t *testing.T) {
	for _, tc := range []struct {
		name string
		want model.EventType
		ok   bool
	}{
		{"AXFocusedUIElementChanged", model.EventFocusChanged, true},
		{"AXFocusedWindowChanged", model.EventFocusChanged, true},
		{"AXMainWindowChanged", model.EventFocusChanged, true},
		{"AXValueChanged", model.EventValueChanged, true},
		{"AXSelectedTextChanged", model.EventSelectionChanged, true},
		{"AXTitleChanged", model.EventTitleChanged, true},
		{"AXWindowCreated", model.EventWindowCreated, true},
		{"AXUIElementDestroyed", model.EventElementDestroyed, true},
		{"AXSheetCreated", model.EventDialogOpened, true},
		{"AXDrawerCreated", model.EventDialogOpened, true},
		{"AXMenuOpened", model.EventMenuOpened, true},
		{"AXMenuClosed", model.EventMenuClosed, true},
		{"AXSelectedChildrenChanged", model.EventSelectionChanged, true},
		{"AXSelectedRowsChanged", model.EventSelectionChanged, true},
		{"AXSelectedCellsChanged", model.EventSelectionChanged, true},
		{"AXLayoutChanged", model.EventLayoutChanged, true},
		{"AXResized", model.EventLayoutChanged, true},
		{"AXMoved", model.EventLayoutChanged, true},
		{"AXWindowMoved", model.EventLayoutChanged, true},
		{"AXWindowResized", model.EventLayoutChanged, true},
		{"AXCreated", model.EventChildrenChanged, true},
		{"AXRowCountChanged", model.EventChildrenChanged, true},
		{"AXApplicationActivated", model.EventAppActivated, true},
		{"AXAnnouncementRequested", model.EventAnnouncement, true},
		{"AXRowExpanded", model.EventStateChanged, true},
		{"AXRowCollapsed", model.EventStateChanged, true},
		{"AXElementBusyChanged", model.EventStateChanged, true},
		{"NSWorkspaceDidLaunchApplicationNotification", model.EventAppLaunched, true},
		{"NSWorkspaceDidTerminateApplicationNotification", model.EventAppTerminated, true},
		{"AXHelpTagCreated", "", false},
		{"AXUnitsChanged", "", false},
		{"", "", false},
	} {
		got, ok := NormaliseNotification(tc.name)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NormaliseNotification(%q) = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNormaliseElementNotification(t *testing.T) {
	for _, tc := range []struct {
		name string
		role model.Role
		want model.EventType
	}{
		{"AXUIElementDestroyed", model.RoleWindow, model.EventWindowClosed},
		{"AXUIElementDestroyed", model.RoleSheet, model.EventWindowClosed},
		{"AXUIElementDestroyed", model.RoleDialog, model.EventWindowClosed},
		{"AXUIElementDestroyed", model.RoleButton, model.EventElementDestroyed},
		{"AXWindowCreated", model.RoleDialog, model.EventDialogOpened},
		{"AXWindowCreated", model.RoleWindow, model.EventWindowCreated},
		{"AXValueChanged", model.RoleWindow, model.EventValueChanged},
	} {
		if got, ok := NormaliseElementNotification(tc.name, tc.role); got != tc.want || !ok {
			t.Errorf("NormaliseElementNotification(%q, %q) = %q, %v; want %q", tc.name, tc.role, got, ok, tc.want)
		}
	}
}

// Every registered notification must normalise, and every AX name the table knows must be
// registered: otherwise an observer silently misses it.
func TestNotificationsMatchTable(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range Notifications {
		if seen[n] {
			t.Errorf("%s registered twice", n)
		}
		seen[n] = true
		if _, ok := NormaliseNotification(n); !ok {
			t.Errorf("registered %s does not normalise", n)
		}
	}
	for name, typ := range notificationTypes {
		if strings.HasPrefix(name, "AX") && !seen[name] {
			t.Errorf("%s (%s) is normalised but not registered", name, typ)
		}
		if !slices.Contains(model.EventTypes, typ) {
			t.Errorf("%s maps to unknown event type %q", name, typ)
		}
	}
}

// Only a destroyed element is looked up without being given a handle.
func TestDestroysElement(t *testing.T) {
	for _, n := range Notifications {
		if got, want := destroysElement(n), n == "AXUIElementDestroyed"; got != want {
			t.Errorf("destroysElement(%q) = %v", n, got)
		}
	}
	if destroysElement("AXHelpTagCreated") {
		t.Error("an unmapped notification destroys its element")
	}
}
