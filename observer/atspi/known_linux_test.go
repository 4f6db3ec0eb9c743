package atspi

import (
	"fmt"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
)

// Events about elements the watch has read are told from what the events kept, each as it left
// the element: two changes back to back give two summaries, each showing its own change, where a
// read after the events would show the last one twice.
func TestEventsToldFromTheWatch(t *testing.T) {
	fx := startWatchedGTK3(t)
	a, b, rec, win := fx.a, fx.b, fx.rec, fx.win
	observer.Walk(testkit.Context(t, 10*time.Second), b, win.Ref, observer.WalkOptions{Budget: model.WideBudget()})

	m := rec.Mark()
	do(t, a, map[string]any{"cmd": "set_text", "text": "first"})
	do(t, a, map[string]any{"cmd": "set_text", "text": "second"})
	rec.WaitFor(t, m, 3*time.Second, "the second text", func(e model.Event) bool {
		return ofApp(a.PID, model.EventTextChanged, "Name")(e) && e.Element.Value == "second"
	})
	var values []string
	for _, e := range rec.All()[m:] {
		if ofApp(a.PID, model.EventTextChanged, "Name")(e.Event) {
			values = append(values, e.Detail["op"].(string)+" "+e.Element.Value)
		}
	}
	// The entry held "" or a text of its own before: its first delete (if any) is not asserted.
	if n := len(values); n < 3 || values[n-3] != "insert first" || values[n-2] != "delete " || values[n-1] != "insert second" {
		t.Errorf("text events' values %q, want ... insert first, delete, insert second", values)
	}

	m = rec.Mark()
	do(t, a, map[string]any{"cmd": "toggle"})
	do(t, a, map[string]any{"cmd": "toggle"})
	checked := func(e model.Event) bool {
		return ofApp(a.PID, model.EventStateChanged, "Remember me")(e) && e.Detail["state"] == "checked"
	}
	first := rec.WaitFor(t, m, 3*time.Second, "the first toggle", checked)
	second := rec.WaitFor(t, m+1, 3*time.Second, "the second toggle", func(e model.Event) bool {
		return checked(e) && e.Detail["on"] != first.Detail["on"]
	})
	for _, e := range []testkit.Received{first, second} {
		want := "0"
		if e.Detail["on"] == true {
			want = "1"
		}
		if e.Element.Value != want || e.Element.States.Has(model.StateChecked) != (want == "1") {
			t.Errorf("checked %v: summary %+v", e.Detail["on"], e.Element)
		}
		if e.Element.Bounds != nil {
			t.Errorf("checked %v: the summary has bounds %v, so the app was asked", e.Detail["on"], e.Element.Bounds)
		}
	}
	// What the events kept is what the app says.
	n := b.Read(testkit.Context(t, 5*time.Second), []model.NodeRef{second.Ref})[0]
	if n.Err != nil || n.Value != second.Element.Value || n.States != second.Element.States {
		t.Errorf("read after the toggles: %+v (err %v), the last event told %+v", n.States, n.Err, second.Element)
	}

	// A slider's value: its event carries none, so that event reads it; the read keeps it, and a
	// focus event after it tells the value without asking, the new one, never the one before. A
	// set_value sends more than one value event, and a read that one of them crossed keeps
	// nothing: the slider is read until a read keeps its value.
	for _, v := range []int{42, 43} {
		m = rec.Mark()
		do(t, a, map[string]any{"cmd": "set_value", "value": v})
		changed := rec.WaitFor(t, m, 3*time.Second, fmt.Sprint("the value ", v), func(e model.Event) bool {
			return ofApp(a.PID, model.EventValueChanged, "Volume")(e) && e.Element.Value == fmt.Sprint(v)
		})
		testkit.Eventually(t, 3*time.Second, "a read to keep the value", func() bool {
			b.Read(testkit.Context(t, 5*time.Second), []model.NodeRef{changed.Ref})
			ri, _ := b.cache.get(changed.Ref)
			return ri.haveValue && ri.value == fmt.Sprint(v) && ri.keptFor(b.currentWatch())
		})
		m = rec.Mark()
		do(t, a, map[string]any{"cmd": "focus", "target": "Name"})
		do(t, a, map[string]any{"cmd": "focus", "target": "Volume"})
		e := rec.WaitFor(t, m, 3*time.Second, "the focus on Volume", ofApp(a.PID, model.EventFocusChanged, "Volume"))
		if e.Element.Value != fmt.Sprint(v) || e.Element.Bounds != nil {
			t.Errorf("focus on Volume after its value %d: summary value %q, bounds %v (bounds: the app was asked)", v, e.Element.Value, e.Element.Bounds)
		}
	}
}
