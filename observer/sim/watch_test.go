package sim

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"go.uber.org/goleak"

	"github.com/axbus/axbus/internal/testkit"
)

func TestWatchDeliversInOrder(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	for i := range 50 {
		if err := d.SetValue(notesPID, "title", "v"+string(rune('A'+i%26))+string(rune('a'+i/26))); err != nil {
			t.Fatal(err)
		}
	}
	rec.WaitFor(t, 0, 2*time.Second, "50 values", func(model.Event) bool { return len(rec.Events()) >= 50 })
	events := rec.Events()
	for i, e := range events[:50] {
		want := "v" + string(rune('A'+i%26)) + string(rune('a'+i/26))
		if e.Element.Value != want || e.Raw != "AXValueChanged" || e.Time.IsZero() {
			t.Fatalf("event %d = %s %q, want %q", i, e.Raw, e.Element.Value, want)
		}
	}
}

func TestWatchStopEndsDeliveryAndGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	d, _ := fakeDemo(t)
	got := make(chan model.Event, 16)
	stop, err := d.Watch(func(e model.Event) { got <- e })
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetTitle(notesPID, "main", "One"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-got:
	case <-time.After(2 * time.Second):
		t.Fatal("no event")
	}
	stop()
	stop() // idempotent
	if err := d.SetTitle(notesPID, "main", "Two"); err != nil {
		t.Fatal(err)
	}
	// A watch started now is called after the stopped one were it still called: once it has an
	// event, the stopped one would have had it.
	later := make(chan model.Event, 16)
	stopLater, err := d.Watch(func(e model.Event) { later <- e })
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetTitle(notesPID, "main", "Three"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-later:
	case <-time.After(2 * time.Second):
		t.Fatal("no event for the later watch")
	}
	stopLater()
	if n := len(got); n != 0 {
		t.Fatalf("%d events after stop", n)
	}
}

// stop returns only once a sink call in progress has returned, whether it ends the last Watch
// (the feed's goroutine ends) or one of several (the feed goes on for the others).
func TestWatchStopWaitsForSink(t *testing.T) {
	for _, others := range []int{0, 1} {
		t.Run(fmt.Sprintf("%d others", others), func(t *testing.T) {
			d, _ := fakeDemo(t)
			for range others {
				testkit.Record(t, d.Watch) // subscribed first: called first
			}
			inSink, release := make(chan struct{}), make(chan struct{})
			var once sync.Once
			var done atomic.Bool
			stop, err := d.Watch(func(model.Event) {
				once.Do(func() {
					close(inSink)
					<-release
					done.Store(true)
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			_ = d.SetTitle(notesPID, "main", "x")
			<-inSink
			// Let the sink go only once stop is seen waiting (its stack says so), not after a while.
			stopped := make(chan struct{})
			go func() { stop(); close(stopped) }()
			returned := func() bool {
				select {
				case <-stopped:
					return true
				default:
					return false
				}
			}
			testkit.Eventually(t, 2*time.Second, "stop waiting for the sink", func() bool {
				return returned() || testkit.Blocked("github.com/axbus/axbus/observer/sim.(*Desktop).Watch.func1") > 0
			})
			if returned() {
				t.Fatal("stop returned while sink was running")
			}
			close(release)
			<-stopped
			if !done.Load() {
				t.Fatal("stop returned before the sink did")
			}
		})
	}
}

func TestEventCarriesWindowAndApp(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	if err := d.SetTitle(notesPID, "main", "Notes — Groceries"); err != nil {
		t.Fatal(err)
	}
	e := rec.WaitFor(t, 0, 2*time.Second, "title", raw("AXTitleChanged", ""))
	if e.Type != model.EventTitleChanged || e.Window == nil || e.Window.Title != "Notes — Groceries" ||
		e.App.Name != "Notes" || e.App.PID != notesPID || e.Ref != d.Ref(notesPID, "main") {
		t.Fatalf("event = %+v", e)
	}
}

func TestClosedDesktop(t *testing.T) {
	d, _ := fakeDemo(t)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Watch(func(model.Event) {}); model.CodeOf(err) != model.CodeUnavailable {
		t.Fatalf("watch: %v", err)
	}
	if _, err := d.Apps(context.Background()); model.CodeOf(err) != model.CodeUnavailable {
		t.Fatalf("apps: %v", err)
	}
}
