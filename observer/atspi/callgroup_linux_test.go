//go:build linux

package atspi

import (
	"testing"
	"time"
)

func TestCallGroupWaitsForTheLastAnswer(t *testing.T) {
	g := newCallGroup()
	for range 3 {
		g.add()
	}
	go func() {
		for range 3 {
			time.Sleep(20 * time.Millisecond) // answers 20 ms apart, each within the timeout
			g.answered()
		}
	}()
	cancelled := false
	g.wait(50*time.Millisecond, func() { cancelled = true })
	if cancelled || g.left.Load() != 0 {
		t.Fatalf("cancelled %v with %d calls left; want every answer waited for", cancelled, g.left.Load())
	}
}

func TestCallGroupGivesUpASilentApp(t *testing.T) {
	g := newCallGroup()
	g.add()
	g.add()
	g.answered()
	start := time.Now()
	g.wait(30*time.Millisecond, func() { g.answered() }) // the cancellation ends the pending call
	if el := time.Since(start); el < 30*time.Millisecond || el > 2*time.Second {
		t.Fatalf("gave up after %v; want the 30 ms timeout", el)
	}
	if g.left.Load() != 0 {
		t.Fatalf("%d calls left after the cancellation", g.left.Load())
	}
}
