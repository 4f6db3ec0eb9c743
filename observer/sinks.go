package observer

import (
	"sync"
	"sync/atomic"

	"github.com/axbus/axbus/model"
)

// Sinks fan events out: the observer's subscribers, the watchers of a backend. It is safe for
// concurrent use.
//
// Deliver takes no lock (it reads a copy-on-write list), so a source may deliver from any
// goroutine while sinks come and go, and while it is being started. The sinks are called in the
// order they subscribed; each sees the events in the order of the Deliver calls that reached it.
// A sink removed while a Deliver is under way may still get that one event; no Deliver that
// starts after Unsubscribe returns calls it.
//
// A Sinks made by NewSinks has a source, which produces the events only while someone listens:
// the first Subscribe starts it, the Unsubscribe of the last sink stops it. A source never
// starts while its previous run is being stopped. The zero value has no source (its owner calls
// Deliver by itself) and is ready to use.
type Sinks struct {
	source func(deliver func(model.Event)) (stop func(), err error)
	list   atomic.Pointer[[]sink] // never changed in place: Deliver ranges over it unlocked

	life sync.Mutex // held while the source starts or stops, so the two never overlap
	mu   sync.Mutex // guards what follows, and the writes of list
	next int
	stop func() // the running source's, nil while it is not running
	shut bool
}

type sink struct {
	id int
	fn func(model.Event)
}

// NewSinks returns Sinks whose source runs while at least one sink is subscribed. source is
// handed the Deliver to call and returns the function that stops it; once that returns the
// source must deliver no more.
func NewSinks(source func(deliver func(model.Event)) (stop func(), err error)) *Sinks {
	return &Sinks{source: source}
}

// Subscribe adds fn and returns its id for Unsubscribe. The first sink starts the source (fn
// already receives what it delivers while it starts); when the source fails to start, fn is
// removed again and the error returned. After Close it fails with UNAVAILABLE.
//
// fn must not block, nor call Subscribe or Close: a start or stop may be waiting for it.
func (s *Sinks) Subscribe(fn func(model.Event)) (int, error) {
	if s.source != nil {
		s.life.Lock()
		defer s.life.Unlock()
	}
	s.mu.Lock()
	if s.shut {
		s.mu.Unlock()
		return 0, model.Errorf(model.CodeUnavailable, "Open the backend again: its events were closed.", "the event stream is closed")
	}
	s.next++
	id := s.next
	list := s.current()
	s.publish(append(list[:len(list):len(list)], sink{id, fn})) // a copy: Deliver may be reading list
	start := s.source != nil && s.stop == nil
	s.mu.Unlock()
	if !start {
		return id, nil
	}
	stop, err := s.source(s.Deliver)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.drop(id)
		return 0, err
	}
	if stop == nil {
		stop = func() {}
	}
	s.stop = stop
	return id, nil
}

// Unsubscribe removes the sink id and reports whether it was the last; removing the last stops
// the source, and Unsubscribe returns once it has stopped. An unknown id (removed already, or
// dropped by Close) is ignored: false. The sink of the last id must not remove itself: the
// source's stop may be waiting for it to return.
func (s *Sinks) Unsubscribe(id int) (last bool) {
	s.mu.Lock()
	list := s.current()
	i := indexOf(list, id)
	if i < 0 {
		s.mu.Unlock()
		return false
	}
	if len(list) > 1 || s.stop == nil { // nothing to stop
		s.drop(id)
		s.mu.Unlock()
		return len(list) == 1
	}
	s.mu.Unlock()
	// The last sink: take life first, so that no start overlaps this stop, then look again.
	s.life.Lock()
	defer s.life.Unlock()
	s.mu.Lock()
	list = s.current()
	if indexOf(list, id) < 0 {
		s.mu.Unlock()
		return false
	}
	s.drop(id)
	last = len(list) == 1
	var stop func()
	if last {
		stop, s.stop = s.stop, nil
	}
	s.mu.Unlock()
	if stop != nil {
		stop() // without mu: a sink in an old Deliver may be unsubscribing
	}
	return last
}

// Add is Subscribe for Sinks without a source, where only Close makes it fail: after Close it
// adds nothing and returns 0.
func (s *Sinks) Add(fn func(model.Event)) int {
	id, _ := s.Subscribe(fn)
	return id
}

// Remove is Unsubscribe.
func (s *Sinks) Remove(id int) bool { return s.Unsubscribe(id) }

// Deliver hands e to every sink, in order, without a lock. After Close it calls none.
func (s *Sinks) Deliver(e model.Event) {
	if list := s.list.Load(); list != nil {
		for _, k := range *list {
			k.fn(e)
		}
	}
}

// Close drops every sink and stops the source; no Deliver that starts after it calls a sink, and
// Subscribe fails from then on. Closing again does nothing.
func (s *Sinks) Close() {
	s.life.Lock()
	defer s.life.Unlock()
	s.mu.Lock()
	s.shut = true
	s.list.Store(nil)
	stop := s.stop
	s.stop = nil
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Count is how many sinks there are now.
func (s *Sinks) Count() int {
	if list := s.list.Load(); list != nil {
		return len(*list)
	}
	return 0
}

// current is the list of sinks; callers hold mu and must not change it in place.
func (s *Sinks) current() []sink {
	if list := s.list.Load(); list != nil {
		return *list
	}
	return nil
}

// publish makes list the one Deliver reads; callers hold mu.
func (s *Sinks) publish(list []sink) {
	if len(list) == 0 {
		s.list.Store(nil)
		return
	}
	s.list.Store(&list)
}

// drop publishes the list without the sink id; callers hold mu.
func (s *Sinks) drop(id int) {
	list := s.current()
	i := indexOf(list, id)
	if i < 0 {
		return
	}
	rest := make([]sink, 0, len(list)-1)
	rest = append(append(rest, list[:i]...), list[i+1:]...)
	s.publish(rest)
}

func indexOf(list []sink, id int) int {
	for i, k := range list {
		if k.id == id {
			return i
		}
	}
	return -1
}
