package atspi

import (
	"testing"

	"github.com/axbus/axbus/observer"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		raw    RawEvent
		name   string
		want   observer.EventType
		detail map[string]any
	}{
		{RawEvent{Class: "object", Event: "state-changed", Kind: "focused", D1: 1}, "object:state-changed:focused", observer.EventFocusChanged, nil},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "checked", D1: 1}, "object:state-changed:checked", observer.EventStateChanged,
			map[string]any{"state": "checked", "on": true}},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "checked", D1: 0}, "object:state-changed:checked", observer.EventStateChanged,
			map[string]any{"state": "checked", "on": false}},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "indeterminate", D1: 1}, "", observer.EventStateChanged,
			map[string]any{"state": "mixed", "platform_state": "indeterminate", "on": true}},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "sensitive", D1: 0}, "", observer.EventStateChanged,
			map[string]any{"state": "enabled", "platform_state": "sensitive", "on": false}},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "defunct", D1: 1}, "", observer.EventElementDestroyed, nil},
		{RawEvent{Class: "object", Event: "children-changed", Kind: "add", D1: 3}, "object:children-changed:add", observer.EventChildrenChanged,
			map[string]any{"op": "add", "index": 3}},
		{RawEvent{Class: "object", Event: "children-changed", Kind: "remove/system", D1: 0}, "object:children-changed:remove/system", observer.EventChildrenChanged,
			map[string]any{"op": "remove", "index": 0}},
		{RawEvent{Class: "object", Event: "text-changed", Kind: "insert", D1: 2, D2: 5}, "", observer.EventTextChanged,
			map[string]any{"op": "insert", "start": 2, "length": 5}},
		{RawEvent{Class: "object", Event: "property-change", Kind: "accessible-name"}, "object:property-change:accessible-name", observer.EventTitleChanged, nil},
		{RawEvent{Class: "object", Event: "property-change", Kind: "accessible-value"}, "", observer.EventValueChanged, nil},
		{RawEvent{Class: "object", Event: "value-changed"}, "object:value-changed", observer.EventValueChanged, nil},
		{RawEvent{Class: "object", Event: "selection-changed"}, "", observer.EventSelectionChanged, nil},
		{RawEvent{Class: "object", Event: "active-descendant-changed"}, "", observer.EventFocusChanged, map[string]any{"active_descendant": true}},
		{RawEvent{Class: "object", Event: "announcement"}, "", observer.EventAnnouncement, nil},
		{RawEvent{Class: "window", Event: "create"}, "window:create", observer.EventWindowCreated, nil},
		{RawEvent{Class: "window", Event: "destroy"}, "", observer.EventWindowClosed, nil},
		{RawEvent{Class: "window", Event: "activate"}, "window:activate", observer.EventAppActivated, nil},
		{RawEvent{Class: "focus", Event: "focus"}, "focus:focus", observer.EventFocusChanged, nil},
	}
	for _, c := range cases {
		got, d, ok := Classify(c.raw)
		if !ok || got != c.want {
			t.Errorf("Classify(%s) = %s, %v; want %s", c.raw.Name(), got, ok, c.want)
			continue
		}
		if c.name != "" && c.raw.Name() != c.name {
			t.Errorf("Name() = %q, want %q", c.raw.Name(), c.name)
		}
		if len(d) != len(c.detail) {
			t.Errorf("%s detail %v, want %v", c.raw.Name(), d, c.detail)
			continue
		}
		for k, v := range c.detail {
			if d[k] != v {
				t.Errorf("%s detail[%s] = %v, want %v", c.raw.Name(), k, d[k], v)
			}
		}
	}
	for _, r := range []RawEvent{
		{Class: "object", Event: "state-changed", Kind: "focused", D1: 0},
		{Class: "object", Event: "state-changed", Kind: "defunct", D1: 0},
		{Class: "object", Event: "state-changed", Kind: "horizontal", D1: 1},
		{Class: "object", Event: "state-changed", Kind: "armed", D1: 1},
		{Class: "object", Event: "text-caret-moved"},
		{Class: "object", Event: "bounds-changed"},
		{Class: "object", Event: "property-change", Kind: "accessible-parent"},
		{Class: "object", Event: "children-changed", Kind: "weird"},
		{Class: "window", Event: "deactivate"},
		{Class: "mouse", Event: "button"},
	} {
		if got, _, ok := Classify(r); ok {
			t.Errorf("Classify(%s) = %s; want not reported", r.Name(), got)
		}
	}
}

func TestRefineType(t *testing.T) {
	cases := []struct {
		t    observer.EventType
		role uint32
		want observer.EventType
	}{
		{observer.EventWindowCreated, roleDialog, observer.EventDialogOpened},
		{observer.EventWindowCreated, roleAlert, observer.EventDialogOpened},
		{observer.EventWindowCreated, roleFrame, observer.EventWindowCreated},
		{observer.EventWindowCreated, rolePopupMenu, observer.EventMenuOpened},
		{observer.EventWindowClosed, roleMenu, observer.EventMenuClosed},
		{observer.EventWindowClosed, roleDialog, observer.EventWindowClosed},
		{observer.EventFocusChanged, roleDialog, observer.EventFocusChanged},
	}
	for _, c := range cases {
		if got := refineType(c.t, c.role); got != c.want {
			t.Errorf("refineType(%s, %s) = %s, want %s", c.t, RoleName(c.role), got, c.want)
		}
	}
	if closedType(roleDialog) != observer.EventWindowClosed || closedType(roleMenu) != observer.EventMenuClosed || closedType(roleToolTip) != "" {
		t.Error("closedType")
	}
	if openedType(roleDialog) != observer.EventDialogOpened || openedType(roleFrame) != observer.EventWindowCreated || openedType(roleToolTip) != "" {
		t.Error("openedType")
	}
	if registeredEvents[len(registeredEvents)-1] != "window:" {
		t.Error("window events are registered by class")
	}
}
