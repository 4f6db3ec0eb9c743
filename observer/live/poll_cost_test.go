package live_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
)

// After the first full read, a cycle reads what changed: one element for one change, ten for
// ten, none for none, while a full read of the same window reads all 4,000.
func TestPollCycleCostFollowsTheChange(t *testing.T) {
	r := startPoller(t, "large", live.PollResync(0))
	r.firstReset(t, 4000)
	for _, changes := range []int{0, 1, 10} {
		for i := range changes {
			if err := r.desk.SetValue(ledgerPID, fmt.Sprintf("entry-%d-amount-text", 100+i), fmt.Sprintf("%d.50", changes)); err != nil {
				t.Fatal(err)
			}
		}
		r.marked(t, ledgerPID, changes)
		if reads := r.poll(t); reads != int64(changes) {
			t.Errorf("a cycle with %d changes read %d elements, want %d", changes, reads, changes)
		}
		if changes > 0 {
			if d := r.next(t); len(d.Changed) != changes {
				t.Errorf("%d changes reported, want %d", len(d.Changed), changes)
			}
		}
	}

	full := startPoller(t, "large", live.PollResync(1)) // every cycle reads the window whole
	full.firstReset(t, 4000)
	if reads := full.poll(t); reads != 4000 {
		t.Errorf("a full-read cycle read %d elements, want 4000", reads)
	}
}

// BenchmarkPollCycle measures one cycle on the 4,000-element window of large.json: with one
// change found through its notification, and as a full re-read (what a resync costs). It
// reports the elements read per cycle beside the time.
func BenchmarkPollCycle(b *testing.B) {
	b.Run("one_change", func(b *testing.B) {
		r := startPoller(b, "large", live.PollResync(0))
		r.firstReset(b, 4000)
		var reads int64
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			if err := r.desk.SetValue(ledgerPID, "entry-300-amount-text", fmt.Sprint(i)); err != nil {
				b.Fatal(err)
			}
			r.marked(b, ledgerPID, 1)
			b.StartTimer()
			reads += r.poll(b)
			b.StopTimer()
			r.next(b)
			b.StartTimer()
		}
		b.ReportMetric(float64(reads)/float64(b.N), "reads/cycle")
	})
	b.Run("full_read", func(b *testing.B) {
		r := startPoller(b, "large", live.PollResync(1))
		r.firstReset(b, 4000)
		var reads int64
		for b.Loop() {
			reads += r.poll(b)
		}
		b.ReportMetric(float64(reads)/float64(b.N), "reads/cycle")
	})
}

// heapInUse is the live heap after a full collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// The poller's copy of a 4,000-element window costs under 450 bytes per element (about 380 on
// the sim, 370 on Chromium's long page over AT-SPI): each element's summary, its place and its
// child list, not its whole Node (a live window, which waits match against, keeps those and
// costs about twice as much).
func TestPolledCopyBytesPerElement(t *testing.T) {
	desk := fixtureDesktop(t, "large")
	o := observer.New(desk)
	wins, err := desk.Windows(context.Background(), ledgerPID)
	if err != nil {
		t.Fatal(err)
	}
	// Read the window once, so that what the sim builds on a first read is not counted.
	observer.Walk(context.Background(), desk, wins[0].Ref, observer.WalkOptions{Budget: model.WideBudget()})

	before := heapInUse()
	diffs := make(chan model.Diff, 1)
	p := live.NewPoller(o, func(d model.Diff) bool { diffs <- d; return true },
		live.PollInterval(time.Hour), live.PollResync(0))
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	if d := <-diffs; d.Elements != 4000 {
		t.Fatalf("reset of %d elements", d.Elements)
	}
	polled := float64(heapInUse()-before) / 4000
	runtime.KeepAlive(p)

	before = heapInUse()
	lw, err := live.OpenWindow(context.Background(), o, model.App{PID: ledgerPID}, wins[0])
	if err != nil {
		t.Fatal(err)
	}
	live := float64(heapInUse()-before) / 4000
	runtime.KeepAlive(lw)
	t.Logf("copy of a 4,000-element window: poller %.0f bytes per element, live window %.0f", polled, live)
	if polled > 450 || polled >= live {
		t.Errorf("the poller's copy costs %.0f bytes per element (a live window's %.0f); want under 450", polled, live)
	}
}
