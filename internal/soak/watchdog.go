package soak

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Watchdog tells which of a soak's own loops (its agents, waits, monitors) stopped saying they
// are alive: a loop beats each time round, and one not beaten within the limit is stalled. Safe
// for concurrent use.
type Watchdog struct {
	limit time.Duration

	mu   sync.Mutex
	last map[string]time.Time
}

// NewWatchdog watches loops that must beat at least once every limit.
func NewWatchdog(limit time.Duration) *Watchdog {
	return &Watchdog{limit: limit, last: map[string]time.Time{}}
}

// Beat says the loop name is alive now; its first beat starts watching it.
func (w *Watchdog) Beat(name string) { w.BeatAt(name, time.Now()) }

// BeatAt says the loop name was alive at the time given.
func (w *Watchdog) BeatAt(name string, at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if at.After(w.last[name]) {
		w.last[name] = at
	}
}

// Done stops watching the loop name: it ended as it should, and beats no more.
func (w *Watchdog) Done(name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.last, name)
}

// Stalled names the loops not beaten within the limit before now, sorted.
func (w *Watchdog) Stalled(now time.Time) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stalled(now)
}

// stalled is Stalled with w.mu held.
func (w *Watchdog) stalled(now time.Time) []string {
	var out []string
	for name, at := range w.last {
		if now.Sub(at) > w.limit {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Check is nil while no loop is stalled, else an error naming each stalled loop and how long ago
// it last beat.
func (w *Watchdog) Check(now time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	stalled := w.stalled(now)
	if len(stalled) == 0 {
		return nil
	}
	parts := make([]string, len(stalled))
	for i, name := range stalled {
		parts[i] = fmt.Sprintf("%s (last beat %s ago)", name, now.Sub(w.last[name]).Round(time.Millisecond))
	}
	return fmt.Errorf("soak: %d loops silent for more than %s: %s", len(stalled), w.limit, strings.Join(parts, ", "))
}

// Stacks is every goroutine's stack, as a failing soak writes it beside its report to show where
// a stalled loop waits.
func Stacks() []byte {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}
