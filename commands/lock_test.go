package commands

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/waiters"
)

// probe is the simulated desktop whose presses hold on until the test releases them, and that
// records how many run at once, per app and in all.
type probe struct {
	*sim.Desktop
	release         chan struct{} // closed: the presses go on
	mu              sync.Mutex
	now             map[int]int // presses in flight by pid
	total, maxTotal int
	maxPerApp       int
}

func (p *probe) Perform(ctx context.Context, ref model.NodeRef, action string) error {
	pid := p.pidOf(ref)
	p.mu.Lock()
	p.now[pid]++
	p.total++
	p.maxPerApp, p.maxTotal = max(p.maxPerApp, p.now[pid]), max(p.maxTotal, p.total)
	p.mu.Unlock()
	select {
	case <-p.release:
	case <-ctx.Done():
	}
	p.mu.Lock()
	p.now[pid]--
	p.total--
	p.mu.Unlock()
	return p.Desktop.Perform(ctx, ref, action)
}

// pressing is how many presses are in flight.
func (p *probe) pressing() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.total
}

func (p *probe) pidOf(ref model.NodeRef) int {
	for _, pid := range []int{501, 502} {
		for _, id := range []string{"save", "compose"} {
			if p.Ref(pid, id) == ref {
				return pid
			}
		}
	}
	return 0
}

// Actions on one app run one at a time; actions on different apps run side by side.
func TestActionsOnOneAppAreSerialised(t *testing.T) {
	desk, err := sim.Fixture("demo")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = desk.Close() })
	p := &probe{Desktop: desk, release: make(chan struct{}), now: map[int]int{}}
	o := observer.New(p)
	w := waiters.New(o)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	e := New(o, w)
	target := func(pid int, id string) string {
		insp, err := o.Inspect(context.Background(), observer.InspectRequest{App: model.AppQuery{PID: pid}})
		if err != nil {
			t.Fatal(err)
		}
		snap, _ := o.Store().Get(insp.SnapshotID)
		for _, n := range snap.Walk.Nodes {
			if n.Ref == desk.Ref(pid, id) {
				return insp.SnapshotID + ":" + model.ElementID(n.Index)
			}
		}
		t.Fatalf("no %s", id)
		return ""
	}
	targets := []string{target(501, "save"), target(501, "save"), target(501, "save"), target(502, "compose"), target(502, "compose")}
	var wg sync.WaitGroup
	for _, tgt := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.Do(context.Background(), "click", api.ActionRequest{Target: tgt}); err != nil {
				t.Error(err)
			}
		}()
	}
	// Every action is pressing or waits for its app's lock: only then would a press the lock let
	// through too early be in flight. Their stacks say so; no sleep guesses it.
	testkit.Eventually(t, 5*time.Second, "every action pressing or waiting for its app's lock", func() bool {
		return p.pressing()+testkit.Blocked("github.com/axbus/axbus/commands.(*Engine).lock") == len(targets)
	})
	p.mu.Lock()
	perApp, total := p.maxPerApp, p.maxTotal
	p.mu.Unlock()
	close(p.release)
	wg.Wait()
	if perApp != 1 || total != 2 || p.maxPerApp != 1 || p.maxTotal != 2 {
		t.Fatalf("presses at once: %d on one app (want 1), %d in all (want 2); %d and %d by the end", perApp, total, p.maxPerApp, p.maxTotal)
	}
}
