package live

import (
	"testing"
	"time"
)

func TestSlowWholeReadsAreSpacedOut(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		ago, took time.Duration
		elements  int
		due       bool
	}{
		{0, 5 * time.Millisecond, 16000, true},            // a cheap read: on schedule
		{0, 3 * time.Second, 1200, true},                  // an app's window on a slow machine: on schedule
		{time.Second, time.Second, 16000, false},          // 1 s read, 1 s ago: not yet
		{6 * time.Second, time.Second, 16000, true},       // five times its cost has passed
		{20 * time.Second, 5 * time.Second, 16000, false}, // a 5 s page read waits 25 s
	} {
		if got := resyncDue(now.Add(-c.ago), c.took, c.elements); got != c.due {
			t.Errorf("%d elements read %v ago in %v: due %v, want %v", c.elements, c.ago, c.took, got, c.due)
		}
	}
}
