package testkit

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"
)

// Received is an event as a Recorder kept it, with when its sink got it.
type Received struct {
	model.Event
	At time.Time
}

// Recorder keeps the events a watch delivers, in order, for a test to look at or wait for.
type Recorder struct {
	mu     sync.Mutex
	events []Received
	more   chan struct{} // a poke after each event, for WaitFor
}

// Record starts watch with a sink that keeps every event; the watch stops with the test. watch
// is a backend's Watch or anything of its shape.
func Record(t testing.TB, watch func(sink func(model.Event)) (stop func(), err error)) *Recorder {
	t.Helper()
	r := &Recorder{more: make(chan struct{}, 1)}
	stop, err := watch(func(e model.Event) {
		now := time.Now()
		r.mu.Lock()
		r.events = append(r.events, Received{Event: e, At: now})
		r.mu.Unlock()
		select {
		case r.more <- struct{}{}:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return r
}

// All is every event so far, with when it came.
func (r *Recorder) All() []Received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// Events is every event so far.
func (r *Recorder) Events() []model.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]model.Event, len(r.events))
	for i, e := range r.events {
		out[i] = e.Event
	}
	return out
}

// Mark is the number of events so far: WaitFor(after: Mark()) looks only at later ones.
func (r *Recorder) Mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// WaitFor returns the first event from index after on that matches, waiting up to within for
// it; it fails t, listing what came, when none does.
func (r *Recorder) WaitFor(t testing.TB, after int, within time.Duration, what string, match func(model.Event) bool) Received {
	t.Helper()
	deadline := time.After(within)
	for {
		evs := r.All()
		evs = evs[min(after, len(evs)):]
		for _, e := range evs {
			if match(e.Event) {
				return e
			}
		}
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("no %s event within %v; got:\n%s", what, within, describe(evs))
		}
	}
}

// describe lists events one a line: type, raw name, element, app, detail.
func describe(evs []Received) string {
	var b strings.Builder
	for _, e := range evs {
		name := ""
		if e.Element != nil {
			name = string(e.Element.Role) + " " + fmt.Sprintf("%q", e.Element.Name)
		}
		fmt.Fprintf(&b, "  %s %s [%s] pid %d %v\n", e.Type, e.Raw, name, e.App.PID, e.Detail)
	}
	return b.String()
}
