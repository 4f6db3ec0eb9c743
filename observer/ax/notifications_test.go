package ax

import (
	"slices"
	"strings"
	"testing"

	"github.com/axbus/axbus/observer"
)

func TestNormaliseNotification(t *testing.T) {
	for _, tc := range []struct {
		name string
		want observer.EventType
		ok   bool
	}{
		{"AXFocusedUIElementChanged", observer.EventFocusChanged, true},
		{"AXFocusedWindowChanged", observer.EventFocusChanged, true},
		{"AXMainWindowChanged", observer.EventFocusChanged, true},
		{"AXValueChanged", observer.EventValueChanged, true},
		{"AXSelectedTextChanged", observer.EventSelectionChanged, true},
		{"AXTitleChanged", observer.EventTitleChanged, true},
		{"AXWindowCreated", observer.EventWindowCreated, true},
		{"AXUIElementDestroyed", observer.EventElementDestroyed, true},
		{"AXSheetCreated", observer.EventDialogOpened, true},
		{"AXDrawerCreated", observer.EventDialogOpened, true},
		{"AXMenuOpened", observer.EventMenuOpened, true},
		{"AXMenuClosed", observer.EventMenuClosed, true},
		{"AXSelectedChildrenChanged", observer.EventSelectionChanged, true},
		{"AXSelectedRowsChanged", observer.EventSelectionChanged, true},
		{"AXSelectedCellsChanged", observer.EventSelectionChanged, true},
		{"AXLayoutChanged", observer.EventLayoutChanged, true},
		{"AXResized", observer.EventLayoutChanged, true},
		{"AXMoved", observer.EventLayoutChanged, true},
		{"AXWindowMoved", observer.EventLayoutChanged, true},
		{"AXWindowResized", observer.EventLayoutChanged, true},
		{"AXCreated", observer.EventChildrenChanged, true},
		{"AXRowCountChanged", observer.EventChildrenChanged, true},
		{"AXApplicationActivated", observer.EventAppActivated, true},
		{"AXAnnouncementRequested", observer.EventAnnouncement, true},
		{"AXRowExpanded", observer.EventStateChanged, true},
		{"AXRowCollapsed", observer.EventStateChanged, true},
		{"AXElementBusyChanged", observer.EventStateChanged, true},
		{"NSWorkspaceDidLaunchApplicationNotification", observer.EventAppLaunched, true},
		{"NSWorkspaceDidTerminateApplicationNotification", observer.EventAppTerminated, true},
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
		role observer.Role
		want observer.EventType
	}{
		{"AXUIElementDestroyed", observer.RoleWindow, observer.EventWindowClosed},
		{"AXUIElementDestroyed", observer.RoleSheet, observer.EventWindowClosed},
		{"AXUIElementDestroyed", observer.RoleDialog, observer.EventWindowClosed},
		{"AXUIElementDestroyed", observer.RoleButton, observer.EventElementDestroyed},
		{"AXWindowCreated", observer.RoleDialog, observer.EventDialogOpened},
		{"AXWindowCreated", observer.RoleWindow, observer.EventWindowCreated},
		{"AXValueChanged", observer.RoleWindow, observer.EventValueChanged},
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
		if !slices.Contains(observer.EventTypes, typ) {
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
