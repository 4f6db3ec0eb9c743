package observer_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// logSinks records which sink got which event, in call order.
type logSinks struct {
	mu  sync.Mutex
	got []string
}

func (l *logSinks) sink(name string) func(model.Event) {
	return func(e model.Event) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.got = append(l.got, name+e.Raw)
	}
}

func (l *logSinks) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := strings.Join(l.got, " ")
	l.got = nil
	return s
}

func ev(raw string) model.Event { return model.Event{Raw: raw} }

// The zero value, as a backend uses it: sinks in subscription order, each event to all of them,
// Remove telling the last.
func TestSinksZeroValue(t *testing.T) {
	var s observer.Sinks
	var l logSinks
	s.Deliver(ev("0")) // nobody: nothing happens
	a, b := s.Add(l.sink("a")), s.Add(l.sink("b"))
	c := s.Add(l.sink("c"))
	s.Deliver(ev("1"))
	s.Deliver(ev("2"))
	if got := l.take(); got != "a1 b1 c1 a2 b2 c2" {
		t.Fatalf("delivered %q", got)
	}
	if s.Remove(b) {
		t.Fatal("removing the middle sink was called the last")
	}
	if s.Remove(b) {
		t.Fatal("a sink was removed twice")
	}
	s.Deliver(ev("3"))
	if got := l.take(); got != "a3 c3" {
		t.Fatalf("after removing b: %q", got)
	}
	if s.Remove(a) || !s.Remove(c) {
		t.Fatal("the last sink removed was not the last")
	}
	s.Deliver(ev("4"))
	if got := l.take(); got != "" {
		t.Fatalf("delivered %q with no sinks", got)
	}
}

func TestSinksClose(t *testing.T) {
	var s observer.Sinks
	var l logSinks
	id := s.Add(l.sink("a"))
	s.Close()
	s.Close() // again: nothing
	s.Deliver(ev("1"))
	if got := l.take(); got != "" {
		t.Fatalf("delivered %q after Close", got)
	}
	if s.Remove(id) {
		t.Fatal("a sink dropped by Close was removed as the last")
	}
	if id := s.Add(l.sink("b")); id != 0 {
		t.Fatalf("Add after Close = %d, want 0", id)
	}
	if _, err := s.Subscribe(l.sink("c")); model.CodeOf(err) != model.CodeUnavailable {
		t.Fatalf("Subscribe after Close: %v", err)
	}
	s.Deliver(ev("2"))
	if got := l.take(); got != "" {
		t.Fatalf("delivered %q after Close", got)
	}
}

// source plays a backend's watch: it counts its runs and fails to start while fail is set.
type source struct {
	starts, stops atomic.Int32
	running       atomic.Int32
	overlap       atomic.Bool
	fail          atomic.Bool
	deliver       func(model.Event)
	onStart       func(deliver func(model.Event))
}

func (src *source) start(deliver func(model.Event)) (func(), error) {
	if src.fail.Load() {
		return nil, errors.New("no watch")
	}
	if src.running.Add(1) != 1 {
		src.overlap.Store(true)
	}
	src.starts.Add(1)
	src.deliver = deliver
	if src.onStart != nil {
		src.onStart(deliver)
	}
	return func() {
		for range 20 {
			runtime.Gosched() // give a start the chance to overlap, were it let
		}
		src.running.Add(-1)
		src.stops.Add(1)
	}, nil
}

func (src *source) runs() string {
	return fmt.Sprintf("%d starts %d stops", src.starts.Load(), src.stops.Load())
}

// A source runs from the first Subscribe to the Unsubscribe of the last sink, and again for the
// next first; what it delivers while it starts reaches the sink that started it.
func TestSinksSourceRunsWhileSomeoneListens(t *testing.T) {
	src := &source{onStart: func(deliver func(model.Event)) { deliver(ev("hello")) }}
	s := observer.NewSinks(src.start)
	var l logSinks
	a, err := s.Subscribe(l.sink("a"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Subscribe(l.sink("b"))
	if err != nil {
		t.Fatal(err)
	}
	if got := src.runs(); got != "1 starts 0 stops" {
		t.Fatalf("two subscribers: %s", got)
	}
	src.deliver(ev("1"))
	if got := l.take(); got != "ahello a1 b1" {
		t.Fatalf("delivered %q", got)
	}
	if s.Unsubscribe(a) || src.stops.Load() != 0 {
		t.Fatalf("the first of two left: last reported or %s", src.runs())
	}
	if !s.Unsubscribe(b) || src.runs() != "1 starts 1 stops" {
		t.Fatalf("the last left: %s", src.runs())
	}
	if s.Unsubscribe(b) || src.stops.Load() != 1 {
		t.Fatal("unsubscribing again stopped again")
	}
	c, err := s.Subscribe(l.sink("c"))
	if err != nil || src.runs() != "2 starts 1 stops" {
		t.Fatalf("a new first subscriber: %v, %s", err, src.runs())
	}
	s.Close()
	if src.runs() != "2 starts 2 stops" || s.Unsubscribe(c) || src.stops.Load() != 2 {
		t.Fatalf("Close: %s", src.runs())
	}
}

// A source that fails to start fails Subscribe, keeps no sink, and is tried again by the next.
func TestSinksSourceFails(t *testing.T) {
	src := &source{}
	src.fail.Store(true)
	s := observer.NewSinks(src.start)
	var l logSinks
	if _, err := s.Subscribe(l.sink("a")); err == nil || err.Error() != "no watch" {
		t.Fatalf("Subscribe: %v", err)
	}
	s.Deliver(ev("1"))
	src.fail.Store(false)
	id, err := s.Subscribe(l.sink("b"))
	if err != nil || src.starts.Load() != 1 {
		t.Fatalf("second try: %v, %s", err, src.runs())
	}
	s.Deliver(ev("2"))
	if got := l.take(); got != "b2" {
		t.Fatalf("delivered %q: the failed sink must be gone", got)
	}
	s.Unsubscribe(id)
}

// A Deliver under way keeps the list it started with: a sink removed meanwhile gets that event
// and no later one. A sink may remove itself, or another, from inside its call.
func TestSinksRemovedDuringDelivery(t *testing.T) {
	var s observer.Sinks
	var l logSinks
	var b, c int
	a := s.Add(func(e model.Event) {
		l.sink("a")(e)
		if e.Raw == "1" {
			s.Remove(b)
		}
	})
	b = s.Add(l.sink("b"))
	c = s.Add(func(e model.Event) {
		l.sink("c")(e)
		s.Remove(c)
	})
	s.Deliver(ev("1"))
	s.Deliver(ev("2"))
	if got := l.take(); got != "a1 b1 c1 a2" {
		t.Fatalf("delivered %q", got)
	}
	if !s.Remove(a) {
		t.Fatal("a was not the last")
	}
}

// Deliver allocates nothing and takes no lock: it is on every event's path.
func TestSinksDeliverAllocatesNothing(t *testing.T) {
	var s observer.Sinks
	for range 3 {
		s.Add(func(model.Event) {})
	}
	e := ev("x")
	if n := testing.AllocsPerRun(1000, func() { s.Deliver(e) }); n != 0 {
		t.Fatalf("Deliver allocates %v times", n)
	}
}

// Subscribers come and go on many goroutines while events flow: the source never runs twice at
// once, a start never overlaps the previous stop, and nothing is left running at the end.
func TestSinksConcurrent(t *testing.T) {
	src := &source{}
	s := observer.NewSinks(src.start)
	var delivered atomic.Int64
	stopFlow := make(chan struct{})
	flowing := make(chan struct{})
	go func() { // a source delivering without pause, as a busy backend does
		defer close(flowing)
		for {
			select {
			case <-stopFlow:
				return
			default:
				s.Deliver(ev("x"))
				runtime.Gosched()
			}
		}
	}()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				id, err := s.Subscribe(func(model.Event) { delivered.Add(1) })
				if err != nil {
					t.Error(err)
					return
				}
				runtime.Gosched()
				s.Unsubscribe(id)
			}
		}()
	}
	wg.Wait()
	close(stopFlow)
	<-flowing
	if src.overlap.Load() {
		t.Error("the source ran twice at once")
	}
	if src.running.Load() != 0 || src.starts.Load() != src.stops.Load() || src.starts.Load() == 0 {
		t.Errorf("at the end: %s, %d running", src.runs(), src.running.Load())
	}
	t.Logf("%s, %d deliveries", src.runs(), delivered.Load())
}

// Close while subscribers come and go: it stops the running source once, and every Subscribe
// after it fails.
func TestSinksCloseWhileSubscribing(t *testing.T) {
	src := &source{}
	s := observer.NewSinks(src.start)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				id, err := s.Subscribe(func(model.Event) {})
				if err != nil {
					return // closed
				}
				s.Unsubscribe(id)
			}
		}()
	}
	for src.starts.Load() < 10 {
		runtime.Gosched()
	}
	s.Close()
	wg.Wait()
	if src.overlap.Load() || src.running.Load() != 0 || src.starts.Load() != src.stops.Load() {
		t.Fatalf("after Close: %s, %d running", src.runs(), src.running.Load())
	}
}

// watchCounter counts the backend's watches and their stops.
type watchCounter struct {
	observer.Backend
	watches, stops atomic.Int32
}

func (w *watchCounter) Watch(sink func(model.Event)) (func(), error) {
	stop, err := w.Backend.Watch(sink)
	if err != nil {
		return nil, err
	}
	w.watches.Add(1)
	return func() { stop(); w.stops.Add(1) }, nil
}

// The observer watches its backend once, while it has subscribers, and hands each of them every
// event, stamped with its app's generation.
func TestObserverWatchesWhileSubscribed(t *testing.T) {
	desk := fixtureDesktop(t, "demo")
	b := &watchCounter{Backend: desk}
	o := observer.New(b)
	got := [2]chan model.Event{make(chan model.Event, 64), make(chan model.Event, 64)}
	var toks []observer.Token
	for i := range got {
		tok, err := o.Subscribe(func(e model.Event) { got[i] <- e })
		if err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tok)
	}
	if b.watches.Load() != 1 {
		t.Fatalf("%d watches for two subscribers", b.watches.Load())
	}
	if err := desk.Perform(context.Background(), desk.Ref(notes, "remember"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		select {
		case e := <-got[i]:
			if e.Type != model.EventValueChanged || e.App.Generation == 0 {
				t.Fatalf("subscriber %d got %+v", i, e)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("subscriber %d got no event", i)
		}
	}
	o.Unsubscribe(toks[0])
	if b.stops.Load() != 0 {
		t.Fatal("the watch stopped while a subscriber was left")
	}
	o.Unsubscribe(toks[1])
	o.Unsubscribe(toks[1]) // again: nothing
	if b.watches.Load() != 1 || b.stops.Load() != 1 {
		t.Fatalf("after the last left: %d watches, %d stops", b.watches.Load(), b.stops.Load())
	}
	tok, err := o.Subscribe(func(model.Event) {})
	if err != nil || b.watches.Load() != 2 {
		t.Fatalf("a new subscriber: %v, %d watches", err, b.watches.Load())
	}
	o.Unsubscribe(tok)
}
