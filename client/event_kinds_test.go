package client

import (
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// TestEventKinds: a kind is a type, or a type and the state or op that sorts its events; what
// names none is BAD_REQUEST; a kind covers the events of its type and detail.
func TestEventKinds(t *testing.T) {
	kinds, err := ParseEventKinds([]string{"layout_changed", " State_Changed:Showing ", "children_changed:add", "text_changed:delete"})
	if err != nil || len(kinds) != 4 || kinds[1] != (EventKind{model.EventStateChanged, "showing"}) || kinds[1].String() != "state_changed:showing" {
		t.Fatalf("%v %v", kinds, err)
	}
	for _, bad := range []string{"bounds_changed", "", "state_changed:shown", "focus_changed:on", "children_changed:insert", "value_changed:x"} {
		if _, err := ParseEventKinds([]string{bad}); model.CodeOf(err) != model.CodeBadRequest {
			t.Errorf("%q: %v", bad, err)
		}
	}
	showing := &api.Envelope{Event: model.Event{Type: model.EventStateChanged, Detail: map[string]any{"state": "showing", "on": false}}}
	checked := &api.Envelope{Event: model.Event{Type: model.EventStateChanged, Detail: map[string]any{"state": "checked", "on": true}}}
	added := &api.Envelope{Event: model.Event{Type: model.EventChildrenChanged, Detail: map[string]any{"op": "add", "index": 2}}}
	for _, c := range []struct {
		e        *api.Envelope
		excluded bool
	}{{showing, true}, {checked, false}, {added, true}} {
		if Excludes(kinds, c.e) != c.excluded {
			t.Errorf("%s: excluded %v, want %v", KindOf(c.e), !c.excluded, c.excluded)
		}
	}
	if KindOf(checked) != (EventKind{model.EventStateChanged, "checked"}) || !(EventKind{Type: model.EventStateChanged}).Covers(checked) {
		t.Errorf("kind of a checked change: %v", KindOf(checked))
	}
	if CheckEventType("Value_Changed") != nil || CheckEventType("") != nil || CheckEventType("values_changed") == nil {
		t.Error("CheckEventType")
	}
}
