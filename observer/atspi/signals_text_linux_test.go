//go:build linux

package atspi

import (
	"testing"

	"github.com/godbus/dbus/v5"
)

// A read answered while a text change of its element waits for the dispatcher holds that change
// already: the element's text is not settled until the dispatcher has handled it, and a change
// dropped from a full queue is not waited for.
func TestTextSettlesOnceItsChangesAreHandled(t *testing.T) {
	q := newSignalQueue(0)
	change := &dbus.Signal{Sender: ":1.7", Path: "/org/a11y/atspi/accessible/12", Name: eventIfacePrefix + "Object.TextChanged"}
	other := &dbus.Signal{Sender: ":1.7", Path: "/org/a11y/atspi/accessible/13", Name: eventIfacePrefix + "Object.StateChanged"}
	q.DeliverSignal("", "", change)
	q.DeliverSignal("", "", other)
	if q.textSettled(":1.7", "/org/a11y/atspi/accessible/12") {
		t.Fatal("settled with its text change unhandled")
	}
	if !q.textSettled(":1.8", "/org/a11y/atspi/accessible/12") || !q.textSettled(":1.7", "/org/a11y/atspi/accessible/13") {
		t.Fatal("another app's element, or one with no text change, is not settled")
	}
	batch, _ := q.take()
	for _, a := range batch {
		q.handled(a.sig)
	}
	if !q.textSettled(":1.7", "/org/a11y/atspi/accessible/12") {
		t.Fatal("not settled once its change is handled")
	}
	for range maxQueuedSignals + 1 {
		q.DeliverSignal("", "", change)
	}
	batch, _ = q.take()
	for _, a := range batch[:len(batch)-1] {
		q.handled(a.sig)
	}
	if q.textSettled(":1.7", "/org/a11y/atspi/accessible/12") {
		t.Fatal("settled with the last change unhandled")
	}
	q.handled(batch[len(batch)-1].sig)
	if !q.textSettled(":1.7", "/org/a11y/atspi/accessible/12") || len(q.textPending) != 0 {
		t.Fatalf("a dropped change is still waited for: %v", q.textPending)
	}
}
