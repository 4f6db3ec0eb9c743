package sim

import (
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"go.uber.org/goleak"
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

func raw(name, element string) func(model.Event) bool {
	return func(e model.Event) bool {
		return e.Raw == name && (element == "" || (e.Element != nil && e.Element.Name == element))
	}
}

func rawNames(events []model.Event) []string {
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
func peek(t testing.TB, d *Desktop, pid int, id string) model.Node {
	t.Helper()
	n, ok := d.Peek(pid, id)
	if !ok {
		t.Fatalf("no element %q in pid %d", id, pid)
	}
	return n
}
