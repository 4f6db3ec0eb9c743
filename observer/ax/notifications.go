package ax

import "github.com/axbus/axbus/observer"

// notificationTypes maps AX notifications, and the NSWorkspace notifications that report app
// launch and exit, onto normalised event types.
//
// AX posts no notification for a text edit as such: an edit arrives as AXValueChanged
// (value_changed); AXSelectedTextChanged is a caret or text-selection move (selection_changed).
var notificationTypes = map[string]observer.EventType{
	"AXFocusedUIElementChanged": observer.EventFocusChanged,
	"AXFocusedWindowChanged":    observer.EventFocusChanged,
	"AXMainWindowChanged":       observer.EventFocusChanged,
	"AXValueChanged":            observer.EventValueChanged,
	"AXTitleChanged":            observer.EventTitleChanged,
	"AXWindowCreated":           observer.EventWindowCreated,
	"AXUIElementDestroyed":      observer.EventElementDestroyed,
	"AXSheetCreated":            observer.EventDialogOpened,
	"AXDrawerCreated":           observer.EventDialogOpened,
	"AXMenuOpened":              observer.EventMenuOpened,
	"AXMenuClosed":              observer.EventMenuClosed,
	"AXMenuItemSelected":        observer.EventSelectionChanged,
	"AXSelectedChildrenChanged": observer.EventSelectionChanged,
	"AXSelectedRowsChanged":     observer.EventSelectionChanged,
	"AXSelectedColumnsChanged":  observer.EventSelectionChanged,
	"AXSelectedCellsChanged":    observer.EventSelectionChanged,
	"AXSelectedTextChanged":     observer.EventSelectionChanged,
	"AXLayoutChanged":           observer.EventLayoutChanged,
	"AXMoved":                   observer.EventLayoutChanged,
	"AXResized":                 observer.EventLayoutChanged,
	"AXWindowMoved":             observer.EventLayoutChanged,
	"AXWindowResized":           observer.EventLayoutChanged,
	"AXCreated":                 observer.EventChildrenChanged,
	"AXRowCountChanged":         observer.EventChildrenChanged,
	"AXSelectedChildrenMoved":   observer.EventChildrenChanged,
	"AXRowExpanded":             observer.EventStateChanged,
	"AXRowCollapsed":            observer.EventStateChanged,
	"AXElementBusyChanged":      observer.EventStateChanged,
	"AXWindowMiniaturized":      observer.EventStateChanged,
	"AXWindowDeminiaturized":    observer.EventStateChanged,
	"AXApplicationDeactivated":  observer.EventStateChanged,
	"AXApplicationHidden":       observer.EventStateChanged,
	"AXApplicationShown":        observer.EventStateChanged,
	"AXApplicationActivated":    observer.EventAppActivated,
	"AXAnnouncementRequested":   observer.EventAnnouncement,

	"NSWorkspaceDidLaunchApplicationNotification":    observer.EventAppLaunched,
	"NSWorkspaceDidTerminateApplicationNotification": observer.EventAppTerminated,
	"NSWorkspaceDidActivateApplicationNotification":  observer.EventAppActivated,
}

// Notifications lists the AX notifications an observer registers on each application element.
// Registering on the application element also covers elements and windows that do not exist yet.
var Notifications = []string{
	"AXFocusedUIElementChanged", "AXFocusedWindowChanged", "AXMainWindowChanged",
	"AXApplicationActivated", "AXApplicationDeactivated", "AXApplicationHidden", "AXApplicationShown",
	"AXWindowCreated", "AXWindowMoved", "AXWindowResized", "AXWindowMiniaturized", "AXWindowDeminiaturized",
	"AXSheetCreated", "AXDrawerCreated",
	"AXValueChanged", "AXTitleChanged", "AXUIElementDestroyed", "AXCreated",
	"AXMenuOpened", "AXMenuClosed", "AXMenuItemSelected",
	"AXRowCountChanged", "AXRowExpanded", "AXRowCollapsed",
	"AXSelectedChildrenChanged", "AXSelectedRowsChanged", "AXSelectedColumnsChanged",
	"AXSelectedCellsChanged", "AXSelectedTextChanged", "AXSelectedChildrenMoved",
	"AXMoved", "AXResized", "AXLayoutChanged",
	"AXAnnouncementRequested", "AXElementBusyChanged",
}

// NormaliseNotification maps an AX (or NSWorkspace) notification name onto an event type;
// false for a name without a counterpart (AXHelpTagCreated, AXUnitsChanged).
func NormaliseNotification(name string) (observer.EventType, bool) {
	t, ok := notificationTypes[name]
	return t, ok
}

// destroysElement reports whether notification name says its element is gone. Such an
// element is looked up among the handles given out, never given one: it is dead, and a handle
// nobody saw before names nothing a client knows.
func destroysElement(name string) bool {
	t, _ := NormaliseNotification(name)
	return t == observer.EventElementDestroyed
}

// NormaliseElementNotification refines NormaliseNotification with the role of the element the
// notification is about: AX has no "window closed", so a window, dialog or sheet destroyed is
// window_closed, and a window created as a dialog is dialog_opened.
func NormaliseElementNotification(name string, role observer.Role) (observer.EventType, bool) {
	t, ok := NormaliseNotification(name)
	switch {
	case t == observer.EventElementDestroyed && role.IsWindowLike():
		return observer.EventWindowClosed, ok
	case t == observer.EventWindowCreated && role == observer.RoleDialog:
		return observer.EventDialogOpened, ok
	}
	return t, ok
}
