package sim

import (
	"context"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
)

func TestClockScriptLoops(t *testing.T) {
	d, clock := fakeDemo(t)
	if v := peek(t, d, notesPID, "clock").Name; v != "Synced at 09:26:53" {
		t.Fatalf("clock at start = %q", v)
	}
	rec := testkit.Record(t, d.Watch)
	clock.Advance(1999 * time.Millisecond)
	if len(rec.Events()) != 0 {
		t.Fatalf("events before 2 s: %v", rawNames(rec.Events()))
	}
	clock.Advance(time.Millisecond)
	clock.Advance(2 * time.Second)
	rec.WaitFor(t, 0, 2*time.Second, "second tick", raw("AXValueChanged", "Synced at 09:26:57"))
	ticks := valueChanges(rec.Events(), "Synced at 09:26:55")
	if len(ticks) != 1 {
		t.Fatalf("events = %v", rawNames(rec.Events()))
	}
}

func TestLoopStopsWhenAppDies(t *testing.T) {
	d, clock := fakeDemo(t)
	if err := d.Kill(notesPID); err != nil {
		t.Fatal(err)
	}
	rec := testkit.Record(t, d.Watch)
	clock.Advance(10 * time.Second)
	if err := d.SetTitle(mailPID, "inbox", "marker"); err != nil {
		t.Fatal(err)
	}
	rec.WaitFor(t, 0, 2*time.Second, "marker", raw("AXTitleChanged", "marker"))
	if events := rec.Events(); len(events) != 1 {
		t.Fatalf("a dead app's script posted %v", rawNames(events))
	}
}

func TestPlayScript(t *testing.T) {
	spec, err := Parse("script.json", []byte(behaviour(`"scripts": [{"name": "busy", "steps": [
		{"at_ms": 0, "do": [{"set": "f", "value": "working", "enabled": false}]},
		{"at_ms": 50, "do": [{"notify": "AXAnnouncementRequested", "text": "Done"}, {"set": "f", "value": "done", "enabled": true}, {"move": "b", "dx": 10, "dy": 5}]}]}]`)))
	if err != nil {
		t.Fatal(err)
	}
	clock := NewFakeClock(epoch)
	d, err := New(spec, WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rec := testkit.Record(t, d.Watch)
	if err := d.Play("busy"); err != nil {
		t.Fatal(err)
	}
	if n := peek(t, d, 1, "f"); n.Value != "working" || n.States.Has(model.StateEnabled) {
		t.Fatalf("f = %+v", n)
	}
	clock.Advance(50 * time.Millisecond)
	ann := rec.WaitFor(t, 0, 2*time.Second, "announcement", raw("AXAnnouncementRequested", ""))
	if ann.Type != model.EventAnnouncement || ann.Detail["announcement"] != "Done" || ann.Element != nil {
		t.Fatalf("announcement = %+v", ann)
	}
	moved := rec.WaitFor(t, 0, 2*time.Second, "moved", raw("AXMoved", ""))
	if moved.Type != model.EventLayoutChanged {
		t.Fatalf("moved = %+v", moved)
	}
	if n := peek(t, d, 1, "f"); n.Value != "done" || !n.States.Has(model.StateEnabled) {
		t.Fatalf("f = %+v", n)
	}
	if err := d.Play("nope"); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("unknown script: %v", err)
	}
}

func TestCloseStopsPendingReactions(t *testing.T) {
	d, clock := fakeDemo(t)
	if err := d.Perform(context.Background(), d.Ref(notesPID, "save"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil { // the 200 ms reaction and the clock loop are pending
		t.Fatal(err)
	}
	clock.Advance(time.Second) // a timer left running would fire here, on this goroutine
	if _, ok := d.Peek(notesPID, "saved"); ok {
		t.Fatal("a reaction ran after Close")
	}
}
