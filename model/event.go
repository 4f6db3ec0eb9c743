package model

import (
	"time"
)

// EventType is a normalised accessibility notification.
type EventType string

// The normalised event types. The platform's own name travels in Event.Raw.
const (
	EventFocusChanged     EventType = "focus_changed"
	EventValueChanged     EventType = "value_changed"
	EventTextChanged      EventType = "text_changed"
	EventTitleChanged     EventType = "title_changed"
	EventStateChanged     EventType = "state_changed"
	EventChildrenChanged  EventType = "children_changed"
	EventWindowCreated    EventType = "window_created"
	EventWindowClosed     EventType = "window_closed"
	EventElementDestroyed EventType = "element_destroyed"
	EventDialogOpened     EventType = "dialog_opened"
	EventMenuOpened       EventType = "menu_opened"
	EventMenuClosed       EventType = "menu_closed"
	EventSelectionChanged EventType = "selection_changed"
	EventLayoutChanged    EventType = "layout_changed"
	EventAppLaunched      EventType = "app_launched"
	EventAppTerminated    EventType = "app_terminated"
	EventAppActivated     EventType = "app_activated"
	EventAnnouncement     EventType = "announcement"
)

// EventTypes lists every normalised event type.
var EventTypes = []EventType{
	EventFocusChanged, EventValueChanged, EventTextChanged, EventTitleChanged, EventStateChanged,
	EventChildrenChanged, EventWindowCreated, EventWindowClosed, EventElementDestroyed,
	EventDialogOpened, EventMenuOpened, EventMenuClosed, EventSelectionChanged, EventLayoutChanged,
	EventAppLaunched, EventAppTerminated, EventAppActivated, EventAnnouncement,
}

// Event is one normalised notification.
type Event struct {
	Time    time.Time       `json:"time"`
	App     AppRef          `json:"app"`
	Window  *WindowRef      `json:"window,omitempty"`
	Type    EventType       `json:"type"`
	Raw     string          `json:"raw,omitempty"`
	Element *ElementSummary `json:"element,omitempty"`
	Detail  map[string]any  `json:"detail,omitempty"`
	// Ref is the element's handle, for in-process consumers such as waits; never published.
	Ref NodeRef `json:"-"`
	// Child is, for children_changed, the child added or removed, where the platform names it
	// (AT-SPI's signal carries it): a copy re-reads it with its parent, in the same round trip,
	// rather than after the parent's fresh child list shows it. Never published.
	Child NodeRef `json:"-"`
	// Added is, for children_changed add, the child as the backend read it right after the event,
	// where it did (a wait is pending on the app): a wait that holds as soon as one element matches
	// may be met by it, read after the event, before the app is busy laying the child out. Never
	// published.
	Added *Node `json:"-"`
	// Secure marks an event about a secure field (or an element within one): the observer holds
	// back its text events and strips their detail (see secureGate). Never published.
	Secure bool `json:"-"`
	// Instance is, for app_launched, the backend's identity of the instance (App.Instance), so
	// that a launch announced again keeps its generation. Never published.
	Instance string `json:"-"`
}
