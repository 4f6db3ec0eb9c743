package observer

import "sync"

// Sinks are the receivers of a backend's watch: each Watch call adds one, its stop removes it,
// and every event goes to all of them. The zero value is ready; it is safe for concurrent use.
type Sinks struct {
	mu     sync.Mutex
	m      map[int]func(Event)
	next   int
	closed bool
}

// Add adds a sink and returns its id for Remove.
func (s *Sinks) Add(sink func(Event)) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[int]func(Event){}
	}
	s.next++
	s.m[s.next] = sink
	return s.next
}

// Remove drops a sink and reports whether it was the last.
func (s *Sinks) Remove(id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[id]; !ok {
		return false
	}
	delete(s.m, id)
	return len(s.m) == 0
}

// Deliver hands e to every sink, outside the lock (a sink may take its time, never block).
// After Close it does nothing.
func (s *Sinks) Deliver(e Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	sinks := make([]func(Event), 0, len(s.m))
	for _, sink := range s.m {
		sinks = append(sinks, sink)
	}
	s.mu.Unlock()
	for _, sink := range sinks {
		sink(e)
	}
}

// Close stops delivery: no Deliver that starts after it calls a sink.
func (s *Sinks) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}
