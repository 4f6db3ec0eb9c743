package sim

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/axbus/axbus/observer"
)

func TestWatchDeliversInOrder(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := record(t, d)
	for i := range 50 {
		if err := d.SetValue(notesPID, "title", "v"+string(rune('A'+i%26))+string(rune('a'+i/26))); err != nil {
			t.Fatal(err)
		}
	}
	rec.waitFor(t, "50 values", func(observer.Event) bool { return len(rec.all()) >= 50 })
	events := rec.all()
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
	var got atomic.Int32
	stop, err := d.Watch(func(observer.Event) { got.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetTitle(notesPID, "main", "One"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for got.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	stop()
	stop() // idempotent
	n := got.Load()
	if err := d.SetTitle(notesPID, "main", "Two"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	if n != 1 || got.Load() != n {
		t.Fatalf("delivered %d, then %d after stop", n, got.Load())
	}
}

func TestWatchStopWaitsForSink(t *testing.T) {
	d, _ := fakeDemo(t)
	inSink, release := make(chan struct{}), make(chan struct{})
	var done atomic.Bool
	stop, err := d.Watch(func(observer.Event) {
		close(inSink)
		<-release
		done.Store(true)
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = d.SetTitle(notesPID, "main", "x")
	<-inSink
	go func() { time.Sleep(20 * time.Millisecond); close(release) }()
	stop()
	if !done.Load() {
		t.Fatal("stop returned while sink was running")
	}
}

func TestEventCarriesWindowAndApp(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := record(t, d)
	if err := d.SetTitle(notesPID, "main", "Notes — Groceries"); err != nil {
		t.Fatal(err)
	}
	e := rec.waitFor(t, "title", raw("AXTitleChanged", ""))
	if e.Type != observer.EventTitleChanged || e.Window == nil || e.Window.Title != "Notes — Groceries" ||
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
	if _, err := d.Watch(func(observer.Event) {}); observer.CodeOf(err) != observer.CodeUnavailable {
		t.Fatalf("watch: %v", err)
	}
	if _, err := d.Apps(context.Background()); observer.CodeOf(err) != observer.CodeUnavailable {
		t.Fatalf("apps: %v", err)
	}
}

// The observer's own subscription runs over Watch: events arrive stamped with generations.
func TestObserverSubscription(t *testing.T) {
	d, _ := fakeDemo(t)
	o := observer.New(d)
	got := make(chan observer.Event, 16)
	tok, err := o.Subscribe(func(e observer.Event) { got <- e })
	if err != nil {
		t.Fatal(err)
	}
	defer o.Unsubscribe(tok)
	if err := d.Perform(context.Background(), d.Ref(notesPID, "remember"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-got:
		if e.Type != observer.EventValueChanged || e.App.Generation == 0 {
			t.Fatalf("event = %+v", e)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no event")
	}
}
