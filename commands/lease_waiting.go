package commands

import (
	"slices"
	"sync"
)

// leaseWaiters are the leases each identity waits for now (an acquire with wait_ms that found
// its lease held), which the agents endpoint shows beside the leases it holds.
type leaseWaiters struct {
	mu sync.Mutex
	by map[string]map[string]int // identity -> lease key -> acquires waiting
}

// add notes that name waits for key, until the function it returns is called.
func (w *leaseWaiters) add(name, key string) (done func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.by == nil {
		w.by = map[string]map[string]int{}
	}
	if w.by[name] == nil {
		w.by[name] = map[string]int{}
	}
	w.by[name][key]++
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.by[name][key]--; w.by[name][key] <= 0 {
			delete(w.by[name], key)
		}
		if len(w.by[name]) == 0 {
			delete(w.by, name)
		}
	}
}

// WaitingFor lists the leases name waits for, by key.
func (l *Leases) WaitingFor(name string) []string {
	l.waiters.mu.Lock()
	defer l.waiters.mu.Unlock()
	var keys []string
	for k := range l.waiters.by[name] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
