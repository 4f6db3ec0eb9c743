package sim

import (
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/axbus/axbus/observer"
)

// Every test must leave no goroutine behind: watchers, timers and blocked calls end with Close.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const (
	notesPID = 501
	mailPID  = 502
)

var epoch = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// loadFixture starts a fixture desktop that the test closes.
func loadFixture(t testing.TB, name string, opts ...Option) *Desktop {
	t.Helper()
	d, err := Fixture(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// fakeDemo is the demo desktop on a fake clock.
func fakeDemo(t testing.TB) (*Desktop, *FakeClock) {
	clock := NewFakeClock(epoch)
	return loadFixture(t, "demo", WithClock(clock)), clock
}

// recorder keeps the events a Watch delivers.
type recorder struct {
	mu     sync.Mutex
	events []observer.Event
	more   chan struct{}
}

func record(t testing.TB, d *Desktop) *recorder {
	t.Helper()
	r := &recorder{more: make(chan struct{}, 1)}
	stop, err := d.Watch(func(e observer.Event) {
		r.mu.Lock()
		r.events = append(r.events, e)
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

func (r *recorder) all() []observer.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// waitFor returns the first event that matches, waiting up to two seconds for it.
func (r *recorder) waitFor(t testing.TB, what string, match func(observer.Event) bool) observer.Event {
	t.Helper()
	deadline := time.After(2 * time.Second)
	for {
		for _, e := range r.all() {
			if match(e) {
				return e
			}
		}
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("no %s event; got %v", what, rawNames(r.all()))
		}
	}
}

func raw(name, element string) func(observer.Event) bool {
	return func(e observer.Event) bool {
		return e.Raw == name && (element == "" || (e.Element != nil && e.Element.Name == element))
	}
}

func rawNames(events []observer.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Raw
		if e.Element != nil {
			out[i] += "(" + e.Element.Name + ")"
		}
	}
	return out
}

// peek reads a node without faults or latency, failing the test when it is missing.
func peek(t testing.TB, d *Desktop, pid int, id string) observer.Node {
	t.Helper()
	n, ok := d.Peek(pid, id)
	if !ok {
		t.Fatalf("no element %q in pid %d", id, pid)
	}
	return n
}
