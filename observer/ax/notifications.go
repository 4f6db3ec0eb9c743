package ax

import "github.com/axbus/axbus/model"

// notificationTypes maps AX notifications, and the NSWorkspace notifications that report app
// launch and exit, onto normalised event types.
//
// AX posts no notification for a text edit as such: an edit arrives as AXValueChanged
// (value_changed); AXSelectedTextChanged is a caret or text-selection move (selection_changed).
var notificationTypes = map[string]model.EventType{
	"AXFocusedUIElementChanged": model.EventFocusChanged,
	"AXFocusedWindowChanged":    model.EventFocusChanged,
	"AXMainWindowChanged":       model.EventFocusChanged,
	"AXValueChanged":            model.EventValueChanged,
	"AXTitleChanged":            model.EventTitleChanged,
	"AXWindowCreated":           model.EventWindowCreated,
	"AXUIElementDestroyed":      model.EventElementDestroyed,
	"AXSheetCreated":            model.EventDialogOpened,
	"AXDrawerCreated":           model.EventDialogOpened,
	"AXMenuOpened":              model.EventMenuOpened,
	"AXMenuClosed":              model.EventMenuClosed,
	"AXMenuItemSelected":        model.EventSelectionChanged,
	"AXSelectedChildrenChanged": model.EventSelectionChanged,
	"AXSelectedRowsChanged":     model.EventSelectionChanged,
	"AXSelectedColumnsChanged":  model.EventSelectionChanged,
	"AXSelectedCellsChanged":    model.EventSelectionChanged,
	"AXSelectedTextChanged":     model.EventSelectionChanged,
	"AXLayoutChanged":           model.EventLayoutChanged,
	"AXMoved":                   model.EventLayoutChanged,
	"AXResized":                 model.EventLayoutChanged,
	"AXWindowMoved":             model.EventLayoutChanged,
	"AXWindowResized":           model.EventLayoutChanged,
	"AXCreated":                 model.EventChildrenChanged,
	"AXRowCountChanged":         model.EventChildrenChanged,
	"AXSelectedChildrenMoved":   model.EventChildrenChanged,
	"AXRowExpanded":             model.EventStateChanged,
	"AXRowCollapsed":            model.EventStateChanged,
	"AXElementBusyChanged":      model.EventStateChanged,
	"AXWindowMiniaturized":      model.EventStateChanged,
	"AXWindowDeminiaturized":    model.EventStateChanged,
	"AXApplicationDeactivated":  model.EventStateChanged,
	"AXApplicationHidden":       model.EventStateChanged,
	"AXApplicationShown":        model.EventStateChanged,
	"AXApplicationActivated":    model.EventAppActivated,
	"AXAnnouncementRequested":   model.EventAnnouncement,

	"NSWorkspaceDidLaunchApplicationNotification":    model.EventAppLaunched,
	"NSWorkspaceDidTerminateApplicationNotification": model.EventAppTerminated,
	"NSWorkspaceDidActivateApplicationNotification":  model.EventAppActivated,
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
func NormaliseNotification(name string) (model.EventType, bool) {
	t, ok := notificationTypes[name]
	return t, ok
}

// destroysElement reports whether notification name says its element is gone. Such an
// element is looked up among the handles given out, never given one: it is dead, and a handle
// nobody saw before names nothing a client knows.
func destroysElement(name string) bool {
	t, _ := NormaliseNotification(name)
	return t == model.EventElementDestroyed
}

// NormaliseElementNotification refines NormaliseNotification with the role of the element the
// notification is about: AX has no "window closed", so a window, dialog or sheet destroyed is
// window_closed, and a window created as a dialog is dialog_opened.
func NormaliseElementNotification(name string, role model.Role) (model.EventType, bool) {
	t, ok := NormaliseNotification(name)
	switch {
	case t == model.EventElementDestroyed && role.IsWindowLike():
		return model.EventWindowClosed, ok
	case t == model.EventWindowCreated && role == model.RoleDialog:
		return model.EventDialogOpened, ok
	}
	return t, ok
}
