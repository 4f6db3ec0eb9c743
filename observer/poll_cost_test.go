package observer_test

import (
	"fmt"
	"testing"

	"github.com/axbus/axbus/observer"
)

// After the first full read, a cycle reads what changed: one element for one change, ten for
// ten, none for none, while a full read of the same window reads all 4,000.
func TestPollCycleCostFollowsTheChange(t *testing.T) {
	r := startPoller(t, "large", observer.PollResync(0))
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

	full := startPoller(t, "large", observer.PollResync(1)) // every cycle reads the window whole
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
		r := startPoller(b, "large", observer.PollResync(0))
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
		r := startPoller(b, "large", observer.PollResync(1))
		r.firstReset(b, 4000)
		var reads int64
		for b.Loop() {
			reads += r.poll(b)
		}
		b.ReportMetric(float64(reads)/float64(b.N), "reads/cycle")
	})
}
