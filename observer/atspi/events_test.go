package atspi

import (
	"testing"

	"github.com/axbus/axbus/model"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		raw    RawEvent
		name   string
		want   model.EventType
		detail map[string]any
	}{
		{RawEvent{Class: "object", Event: "state-changed", Kind: "focused", D1: 1}, "object:state-changed:focused", model.EventFocusChanged, nil},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "checked", D1: 1}, "object:state-changed:checked", model.EventStateChanged,
			map[string]any{"state": "checked", "on": true}},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "checked", D1: 0}, "object:state-changed:checked", model.EventStateChanged,
			map[string]any{"state": "checked", "on": false}},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "indeterminate", D1: 1}, "", model.EventStateChanged,
			map[string]any{"state": "mixed", "platform_state": "indeterminate", "on": true}},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "sensitive", D1: 0}, "", model.EventStateChanged,
			map[string]any{"state": "enabled", "platform_state": "sensitive", "on": false}},
		{RawEvent{Class: "object", Event: "state-changed", Kind: "defunct", D1: 1}, "", model.EventElementDestroyed, nil},
		{RawEvent{Class: "object", Event: "children-changed", Kind: "add", D1: 3}, "object:children-changed:add", model.EventChildrenChanged,
			map[string]any{"op": "add", "index": 3}},
		{RawEvent{Class: "object", Event: "children-changed", Kind: "remove/system", D1: 0}, "object:children-changed:remove/system", model.EventChildrenChanged,
			map[string]any{"op": "remove", "index": 0}},
		{RawEvent{Class: "object", Event: "text-changed", Kind: "insert", D1: 2, D2: 5}, "", model.EventTextChanged,
			map[string]any{"op": "insert", "start": 2, "length": 5}},
		{RawEvent{Class: "object", Event: "property-change", Kind: "accessible-name"}, "object:property-change:accessible-name", model.EventTitleChanged, nil},
		{RawEvent{Class: "object", Event: "property-change", Kind: "accessible-value"}, "", model.EventValueChanged, nil},
		{RawEvent{Class: "object", Event: "value-changed"}, "object:value-changed", model.EventValueChanged, nil},
		{RawEvent{Class: "object", Event: "selection-changed"}, "", model.EventSelectionChanged, nil},
		{RawEvent{Class: "object", Event: "active-descendant-changed"}, "", model.EventFocusChanged, map[string]any{"active_descendant": true}},
		{RawEvent{Class: "object", Event: "announcement"}, "", model.EventAnnouncement, nil},
		{RawEvent{Class: "window", Event: "create"}, "window:create", model.EventWindowCreated, nil},
		{RawEvent{Class: "window", Event: "destroy"}, "", model.EventWindowClosed, nil},
		{RawEvent{Class: "window", Event: "activate"}, "window:activate", model.EventAppActivated, nil},
		{RawEvent{Class: "focus", Event: "focus"}, "focus:focus", model.EventFocusChanged, nil},
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
		t    model.EventType
		role uint32
		want model.EventType
	}{
		{model.EventWindowCreated, roleDialog, model.EventDialogOpened},
		{model.EventWindowCreated, roleAlert, model.EventDialogOpened},
		{model.EventWindowCreated, roleFrame, model.EventWindowCreated},
		{model.EventWindowCreated, rolePopupMenu, model.EventMenuOpened},
		{model.EventWindowClosed, roleMenu, model.EventMenuClosed},
		{model.EventWindowClosed, roleDialog, model.EventWindowClosed},
		{model.EventFocusChanged, roleDialog, model.EventFocusChanged},
	}
	for _, c := range cases {
		if got := refineType(c.t, c.role); got != c.want {
			t.Errorf("refineType(%s, %s) = %s, want %s", c.t, RoleName(c.role), got, c.want)
		}
	}
	if closedType(roleDialog) != model.EventWindowClosed || closedType(roleMenu) != model.EventMenuClosed || closedType(roleToolTip) != "" {
		t.Error("closedType")
	}
	if openedType(roleDialog) != model.EventDialogOpened || openedType(roleFrame) != model.EventWindowCreated || openedType(roleToolTip) != "" {
		t.Error("openedType")
	}
	if registeredEvents[len(registeredEvents)-1] != "window:" {
		t.Error("window events are registered by class")
	}
}
