package observer_test

import (
	"testing"

	"github.com/axbus/axbus/observer"
)

func TestSinks(t *testing.T) {
	var s observer.Sinks
	var a, b int
	ida := s.Add(func(observer.Event) { a++ })
	idb := s.Add(func(observer.Event) { b++ })
	s.Deliver(observer.Event{})
	if s.Remove(ida) {
		t.Fatal("the first of two sinks removed was called the last")
	}
	if s.Remove(ida) {
		t.Fatal("a sink was removed twice")
	}
	s.Deliver(observer.Event{})
	if !s.Remove(idb) {
		t.Fatal("the last sink removed was not called the last")
	}
	id := s.Add(func(observer.Event) { b++ })
	s.Close()
	s.Deliver(observer.Event{})
	s.Remove(id)
	if a != 1 || b != 2 {
		t.Fatalf("deliveries a=%d b=%d, want 1 and 2", a, b)
	}
}
