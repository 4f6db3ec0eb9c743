package sim

import (
	"sync"
	"time"
)

// Clock is the time source of a desktop: reaction delays, scripts, latency and event times.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once d has passed; stop prevents the call and reports whether it did.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// FakeClock is a Clock that moves only when Advance is called, for deterministic tests. Timers
// fire in Advance's goroutine, in order of their time.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    uint64
	timers map[uint64]fakeTimer
}

type fakeTimer struct {
	at time.Time
	f  func()
}

// NewFakeClock returns a FakeClock showing start.
func NewFakeClock(start time.Time) *FakeClock {
	return &FakeClock{now: start, timers: map[uint64]fakeTimer{}}
}

// Now returns the fake time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d.
func (c *FakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	id := c.seq
	c.timers[id] = fakeTimer{at: c.now.Add(d), f: f}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.timers[id]
		delete(c.timers, id)
		return ok
	}
}

// Advance moves the clock by d, firing every timer that falls due, including timers that the
// fired ones schedule within the same span.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		id, t, ok := c.next(end)
		if !ok {
			c.now = end
			c.mu.Unlock()
			return
		}
		delete(c.timers, id)
		c.now = t.at
		c.mu.Unlock()
		t.f()
	}
}

// next is the earliest timer due by end; ties fire in the order they were scheduled.
func (c *FakeClock) next(end time.Time) (uint64, fakeTimer, bool) {
	var best uint64
	var bt fakeTimer
	found := false
	for id, t := range c.timers {
		if t.at.After(end) {
			continue
		}
		if !found || t.at.Before(bt.at) || (t.at.Equal(bt.at) && id < best) {
			best, bt, found = id, t, true
		}
	}
	return best, bt, found
}
