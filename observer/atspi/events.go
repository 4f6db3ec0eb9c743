package atspi

import (
	"strings"
	"unicode"

	"github.com/axbus/axbus/model"
)

// The AT-SPI event classes this backend registers for. GTK3 (atk-bridge) emits nothing until a
// client registers; the registry passes registrations on to every app.
var registeredEvents = []string{
	"object:state-changed",
	"object:children-changed",
	"object:property-change",
	"object:text-changed",
	"object:value-changed",
	"object:selection-changed",
	"object:active-descendant-changed",
	"object:announcement",
	"window:",
}

// focusEvent is the one event registered for as long as the backend is open: it keeps track of
// the focused element of each app (FocusPath) even when nobody watches.
const focusEvent = "object:state-changed:focused"

// The D-Bus interfaces of AT-SPI events, and the class each one is named by.
const (
	eventIfacePrefix = "org.a11y.atspi.Event."
)

// eventClass is the class of an event interface ("org.a11y.atspi.Event.Object" -> "object"), or
// "" for an interface that is not an AT-SPI event interface.
func eventClass(iface string) string {
	c, ok := strings.CutPrefix(iface, eventIfacePrefix)
	if !ok || c == "" {
		return ""
	}
	return strings.ToLower(c)
}

// hyphenate turns a D-Bus member name into an AT-SPI event name: "StateChanged" ->
// "state-changed", "ActiveDescendantChanged" -> "active-descendant-changed".
func hyphenate(member string) string {
	var b strings.Builder
	for i, r := range member {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// RawEvent is an AT-SPI event as it arrives: the class ("object", "window", "focus"), the event
// ("state-changed"), the kind ("focused", "add", "insert", "accessible-name") and the two
// integers of the signal.
type RawEvent struct {
	Class  string
	Event  string
	Kind   string
	D1, D2 int32
}

// Name is the event's AT-SPI name as libatspi spells it: "object:state-changed:checked",
// "window:create", "focus:".
func (r RawEvent) Name() string {
	s := r.Class + ":" + r.Event
	if r.Kind != "" {
		s += ":" + r.Kind
	}
	return s
}

// mainKind is the kind without the "/system" style suffix some toolkits add ("add/system").
func (r RawEvent) mainKind() string {
	k, _, _ := strings.Cut(r.Kind, "/")
	return k
}

// Classify normalises an AT-SPI event. It returns the event type and its detail, or false when
// the event is not reported (focus lost, caret moves, bounds changes). The caller refines the
// type with what it knows of the source: see refineType.
func Classify(r RawEvent) (model.EventType, map[string]any, bool) {
	kind := r.mainKind()
	switch r.Class {
	case "object":
		switch r.Event {
		case "state-changed":
			on := r.D1 != 0
			switch kind {
			case "focused":
				if !on {
					return "", nil, false
				}
				return model.EventFocusChanged, nil, true
			case "defunct":
				if !on {
					return "", nil, false
				}
				return model.EventElementDestroyed, nil, true
			}
			// Only states with a normalised counterpart are reported: GTK4 re-announces
			// orientation (horizontal, vertical) whenever it updates a widget.
			st := normalisedState(kind)
			if st == 0 {
				return "", nil, false
			}
			d := map[string]any{"state": st.String(), "on": on}
			if st.String() != kind {
				d["platform_state"] = kind
			}
			return model.EventStateChanged, d, true
		case "children-changed":
			if kind != "add" && kind != "remove" {
				return "", nil, false
			}
			return model.EventChildrenChanged, map[string]any{"op": kind, "index": int(r.D1)}, true
		case "property-change":
			switch kind {
			case "accessible-name":
				return model.EventTitleChanged, nil, true
			case "accessible-value":
				return model.EventValueChanged, nil, true
			}
			return "", nil, false
		case "text-changed":
			if kind != "insert" && kind != "delete" {
				return "", nil, false
			}
			return model.EventTextChanged, map[string]any{"op": kind, "start": int(r.D1), "length": int(r.D2)}, true
		case "value-changed":
			return model.EventValueChanged, nil, true
		case "selection-changed":
			return model.EventSelectionChanged, nil, true
		case "active-descendant-changed":
			return model.EventFocusChanged, map[string]any{"active_descendant": true}, true
		case "announcement":
			return model.EventAnnouncement, nil, true
		}
	case "window":
		switch r.Event {
		case "create":
			return model.EventWindowCreated, nil, true
		case "destroy", "close":
			return model.EventWindowClosed, nil, true
		case "activate":
			return model.EventAppActivated, nil, true
		}
	case "focus":
		return model.EventFocusChanged, nil, true
	}
	return "", nil, false
}

// refineType sharpens a window event by the numeric role of the window it is about: a created
// dialog is dialog_opened, a created popup menu menu_opened, a closed one menu_closed.
func refineType(t model.EventType, role uint32) model.EventType {
	switch t {
	case model.EventWindowCreated:
		if isDialogRole(role) {
			return model.EventDialogOpened
		}
		if isMenuRole(role) {
			return model.EventMenuOpened
		}
	case model.EventWindowClosed:
		if isMenuRole(role) {
			return model.EventMenuClosed
		}
	}
	return t
}

// closedType is the event that reports the end of a top-level of this role whose element was
// destroyed (GTK4 closes a dialog with state-changed:defunct only), or "" for other roles.
func closedType(role uint32) model.EventType {
	switch {
	case isMenuRole(role):
		return model.EventMenuClosed
	case isTopLevel(role):
		return model.EventWindowClosed
	}
	return ""
}

// openedType is the event that reports a new top-level of this role (window_created,
// dialog_opened, menu_opened), or "" for roles that are not top-levels.
func openedType(role uint32) model.EventType {
	switch {
	case isTopLevel(role), isMenuRole(role):
		return refineType(model.EventWindowCreated, role)
	}
	return ""
}
