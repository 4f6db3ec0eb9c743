package live_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
)

// listeners plays the daemon's count of subscribers, per app name.
// listeners is how many listen to the ledger app; asked counts the poller asking, which it does
// at every tick for a dormant app: the test's proof that ticks went by.
type listeners struct{ ledger, asked atomic.Int64 }

func (l *listeners) of(app model.App) int {
	if app.PID == ledgerPID {
		l.asked.Add(1)
		return int(l.ledger.Load())
	}
	return 0
}

// ticks waits until the poller asked about the ledger app n times more than at from.
func (l *listeners) ticks(t testing.TB, from int64, n int64) {
	t.Helper()
	testkit.Eventually(t, 10*time.Second, fmt.Sprintf("%d ticks", n), func() bool { return l.asked.Load()-from >= n })
}

// Nobody listening: no window listed, no element read, nothing published, events mark nothing.
// A listener: a reset of the whole window. Gone again: reads stop and the copy is dropped.
func TestPollReadsOnlyWhileSomeoneListens(t *testing.T) {
	var l listeners
	r := startPoller(t, "large", live.PollResync(0), live.PollWhen(l.of))
	r.poll(t)
	if err := r.desk.SetTitle(ledgerPID, "import", "Import CSV"); err != nil {
		t.Fatal(err)
	}
	r.poll(t)
	r.none(t)
	if n, w := r.backend.reads.Load(), r.backend.windows.Load(); n+w != 0 {
		t.Fatalf("with nobody listening the poller read %d elements and listed windows %d times", n, w)
	}
	if s, _ := r.stats(ledgerPID); s.Polling || s.Elements != 0 || s.Pending != 0 {
		t.Fatalf("dormant app: %+v", s)
	}

	l.ledger.Store(1)
	if reads := r.poll(t); reads < 4000 {
		t.Errorf("the first cycle with a listener read %d elements, want the window whole", reads)
	}
	d := r.firstReset(t, 4000)
	if keyOf(d.Added, "Import CSV") == "" {
		t.Error("the reset misses the change made while nobody listened")
	}
	if s, _ := r.stats(ledgerPID); !s.Polling || s.Elements != 4000 || s.Listeners != 1 {
		t.Fatalf("polled app: %+v", s)
	}

	l.ledger.Store(0)
	r.poll(t)
	before := r.backend.reads.Load() + r.backend.windows.Load()
	if err := r.desk.SetTitle(ledgerPID, "import", "Import"); err != nil {
		t.Fatal(err)
	}
	r.poll(t)
	r.poll(t)
	r.none(t)
	if n := r.backend.reads.Load() + r.backend.windows.Load() - before; n != 0 {
		t.Errorf("after the last listener left the poller made %d reads", n)
	}
	if s, _ := r.stats(ledgerPID); s.Polling || s.Elements != 0 || s.Window != nil || s.Pending != 0 {
		t.Errorf("the copy was not dropped: %+v", s)
	}
}

// A second listener joining an app already polled gets a reset too, from memory: no read.
func TestPollResetsForANewListener(t *testing.T) {
	var l listeners
	l.ledger.Store(1)
	r := startPoller(t, "large", live.PollResync(0), live.PollWhen(l.of))
	r.firstReset(t, 4000)
	r.poll(t)
	r.none(t)
	l.ledger.Store(2)
	if reads := r.poll(t); reads != 0 {
		t.Errorf("the reset for a new listener read %d elements, want none", reads)
	}
	r.firstReset(t, 4000)
	l.ledger.Store(1) // one left: the other holds the window already
	r.poll(t)
	r.none(t)
}

// On real ticks: an idle poller lists the apps once, reads nothing and wakes no app's
// goroutine; a listener appearing is seen at the next tick without being asked.
func TestPollIdleOnRealTicks(t *testing.T) {
	var l listeners
	r := startPoller(t, "large", live.PollInterval(2*time.Millisecond), live.PollWhen(l.of))
	testkit.Eventually(t, 5*time.Second, "the apps listed", func() bool { return len(r.poller.Stats()) != 0 })
	l.ticks(t, l.asked.Load(), 100)
	if apps, w, n := r.backend.apps.Load(), r.backend.windows.Load(), r.backend.reads.Load(); apps > 1 || w+n != 0 {
		t.Fatalf("idle for 100 ticks: %d app listings, %d window listings, %d reads", apps, w, n)
	}
	l.ledger.Store(1)
	r.firstReset(t, 4000)
}

// An app launched while the poller is idle is known at once (its launch event), not at the
// next idle discovery 30 s later, so that a subscriber of it is served within a tick.
func TestPollIdleSeesLaunches(t *testing.T) {
	var l listeners
	r := startPoller(t, "large", live.PollInterval(2*time.Millisecond), live.PollWhen(l.of))
	testkit.Eventually(t, 5*time.Second, "the apps listed", func() bool { return len(r.poller.Stats()) != 0 })
	first, _ := r.stats(ledgerPID)
	if err := r.desk.Kill(ledgerPID); err != nil {
		t.Fatal(err)
	}
	if err := r.desk.Relaunch(ledgerPID); err != nil {
		t.Fatal(err)
	}
	l.ledger.Store(1)
	if d := r.firstReset(t, 4000); d.App.Generation <= first.App.Generation {
		t.Errorf("reset of generation %d, want the relaunched app's (after %d)", d.App.Generation, first.App.Generation)
	}
}

// The PollDormant function runs once when the last listener leaves, not while nobody listened
// from the start.
func TestPollDormantOnceTheLastListenerLeft(t *testing.T) {
	var l listeners
	dormant := make(chan struct{}, 4)
	r := startPoller(t, "large", live.PollInterval(2*time.Millisecond), live.PollWhen(l.of),
		live.PollDormant(func() { dormant <- struct{}{} }))
	l.ledger.Store(1)
	r.firstReset(t, 4000)
	select {
	case <-dormant:
		t.Fatal("dormant while an app is polled")
	default:
	}
	l.ledger.Store(0)
	select {
	case <-dormant:
	case <-time.After(5 * time.Second):
		t.Fatal("not dormant 5 s after the last listener left")
	}
	if s, _ := r.stats(ledgerPID); s.Polling || s.Elements != 0 {
		t.Errorf("dormant with %+v", s)
	}
	l.ticks(t, l.asked.Load(), 10) // 10 more ticks must not call it again
	if len(dormant) != 0 {
		t.Error("PollDormant ran again while nothing changed")
	}
}

// stallingBackend calls onRead before each Read: a test's hook into a read in progress.
type stallingBackend struct {
	observer.Backend
	reads  atomic.Int64
	onRead func(read int64)
}

func (s *stallingBackend) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	s.onRead(s.reads.Add(int64(len(refs))))
	return s.Backend.Read(ctx, refs)
}

// The last listener leaving during a full read stops it within a few calls: a large window's
// read takes seconds on a real app. Nothing is published and the copy is not kept.
func TestPollStopsAFullReadNobodyListensTo(t *testing.T) {
	var l listeners
	l.ledger.Store(1)
	b := &stallingBackend{Backend: fixtureDesktop(t, "large")}
	b.onRead = func(read int64) {
		if read >= 1000 {
			l.ledger.Store(0) // gone a quarter of the way through
		}
		time.Sleep(5 * time.Millisecond) // a slow app: 4,000 elements in calls of 32 take over 600 ms
	}
	var diffs atomic.Int64
	p := live.NewPoller(observer.New(b), func(model.Diff) bool { diffs.Add(1); return true },
		live.PollInterval(time.Hour), live.PollWhen(l.of))
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	p.PollNow(context.Background())
	if n := b.reads.Load(); n >= 3000 {
		t.Errorf("the read went on to %d elements after its listener left at 1,000", n)
	}
	if diffs.Load() != 0 {
		t.Error("a read nobody listens to published a diff")
	}
	for _, s := range p.Stats() {
		if s.Polling || s.Elements != 0 {
			t.Errorf("after an abandoned read: %+v", s)
		}
	}
}
