package live_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"go.uber.org/goleak"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/observer/sim"
)

const (
	ledgerPID = 601 // the one app of large.json: a window of 4,000 elements
	notes     = 501 // Notes of demo.json
)

// fixtureDesktop starts the simulated desktop fixtures/desktops/<name>.json; the test closes it.
func fixtureDesktop(t testing.TB, name string, opts ...sim.Option) *sim.Desktop {
	t.Helper()
	d, err := sim.Fixture(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// demo is the simulated demo desktop under an observer.
func demo(t *testing.T) (*observer.Observer, *sim.Desktop) {
	t.Helper()
	d := fixtureDesktop(t, "demo")
	return observer.New(d), d
}

// countingBackend counts the elements Read is asked for (the cost of a poll cycle), and the
// calls listing apps and windows.
type countingBackend struct {
	observer.Backend
	reads, apps, windows atomic.Int64
}

func (c *countingBackend) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	c.reads.Add(int64(len(refs)))
	return c.Backend.Read(ctx, refs)
}

func (c *countingBackend) Apps(ctx context.Context) ([]model.App, error) {
	c.apps.Add(1)
	return c.Backend.Apps(ctx)
}

func (c *countingBackend) Windows(ctx context.Context, pid int) ([]model.Window, error) {
	c.windows.Add(1)
	return c.Backend.Windows(ctx, pid)
}

// pollRig is a poller over a simulated desktop whose diffs land in a channel.
type pollRig struct {
	desk    *sim.Desktop
	backend *countingBackend
	poller  *live.Poller
	diffs   chan model.Diff
	accept  atomic.Bool // what the sink answers: false plays a full publish queue
}

// startPoller polls the fixture desktop. Unless opts say otherwise, ticks are an hour apart, so
// that the test drives cycles with PollNow; the first cycle runs at Start.
func startPoller(t testing.TB, fixture string, opts ...live.PollOption) *pollRig {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) }) // registered first: runs last
	desk := fixtureDesktop(t, fixture)
	r := &pollRig{desk: desk, backend: &countingBackend{Backend: desk}, diffs: make(chan model.Diff, 64)}
	r.accept.Store(true)
	sink := func(d model.Diff) bool {
		if !r.accept.Load() {
			return false
		}
		select {
		case r.diffs <- d:
			return true
		default:
			return false
		}
	}
	all := append([]live.PollOption{live.PollInterval(time.Hour)}, opts...)
	r.poller = live.NewPoller(observer.New(r.backend), sink, all...)
	if err := r.poller.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.poller.Stop)
	return r
}

// next waits for the next diff.
func (r *pollRig) next(t testing.TB) model.Diff {
	t.Helper()
	select {
	case d := <-r.diffs:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("no diff within 5 s")
		return model.Diff{}
	}
}

// none checks that no diff is waiting.
func (r *pollRig) none(t testing.TB) {
	t.Helper()
	select {
	case d := <-r.diffs:
		t.Fatalf("unexpected %s diff: %d added, %d removed, %d changed", d.Kind, len(d.Added), len(d.Removed), len(d.Changed))
	default:
	}
}

// marked waits until events have marked n elements of app pid for the next cycle: the sim
// delivers notifications on its own goroutine.
func (r *pollRig) marked(t testing.TB, pid, n int) {
	t.Helper()
	testkit.Eventually(t, 5*time.Second, fmt.Sprintf("events marking %d elements of pid %d", n, pid), func() bool {
		s, ok := r.stats(pid)
		return ok && s.Pending >= n
	})
}

func (r *pollRig) stats(pid int) (model.AppPollStats, bool) {
	for _, s := range r.poller.Stats() {
		if s.App.PID == pid {
			return s, true
		}
	}
	return model.AppPollStats{}, false
}

// poll runs one cycle now and returns the elements it read.
func (r *pollRig) poll(t testing.TB) int64 {
	t.Helper()
	before := r.backend.reads.Load()
	r.poller.PollNow(context.Background())
	return r.backend.reads.Load() - before
}

// keyOf is the key of the element named name in a list, or "".
func keyOf(elems []model.DiffElement, name string) string {
	for _, e := range elems {
		if e.Name == name {
			return e.Key
		}
	}
	return ""
}

// firstReset waits for the reset of the first cycle and checks it lists the whole window.
func (r *pollRig) firstReset(t testing.TB, want int) model.Diff {
	t.Helper()
	d := r.next(t)
	if d.Kind != model.DiffReset || len(d.Added) != want || d.Elements != want {
		t.Fatalf("first diff: %s with %d added, %d elements; want a reset of %d", d.Kind, len(d.Added), d.Elements, want)
	}
	return d
}
