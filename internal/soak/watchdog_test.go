package soak

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWatchdogNamesAStalledLoop(t *testing.T) {
	w := NewWatchdog(30 * time.Second)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w.BeatAt("agent-1", start)
	w.BeatAt("monitor-live", start)
	w.BeatAt("waits", start)
	for s := 10; s <= 40; s += 10 {
		w.BeatAt("agent-1", start.Add(time.Duration(s)*time.Second))
		w.BeatAt("waits", start.Add(time.Duration(s)*time.Second))
	}
	w.BeatAt("waits", start) // a late report of an old beat does not make it older

	if got := w.Stalled(start.Add(30 * time.Second)); len(got) != 0 {
		t.Errorf("at the limit: stalled %v, want none", got)
	}
	now := start.Add(45 * time.Second)
	if got := w.Stalled(now); !slices.Equal(got, []string{"monitor-live"}) {
		t.Errorf("stalled %v, want [monitor-live]", got)
	}
	err := w.Check(now)
	if err == nil || !strings.Contains(err.Error(), "monitor-live (last beat 45s ago)") || strings.Contains(err.Error(), "agent-1") {
		t.Errorf("Check = %v, want monitor-live named with its last beat, agent-1 not", err)
	}
	w.Done("monitor-live")
	if err := w.Check(now); err != nil {
		t.Errorf("after Done: %v", err)
	}

	w = NewWatchdog(30 * time.Second)
	w.Beat("live")
	if got := w.Stalled(time.Now()); len(got) != 0 {
		t.Errorf("a loop that just beat: stalled %v", got)
	}
	if !strings.Contains(string(Stacks()), "TestWatchdogNamesAStalledLoop") {
		t.Error("Stacks does not hold this test's goroutine")
	}
}
