package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/fixtures"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/observer/sim"
)

// benchPoll: the poller's cost per cycle on the 4,000-element window of the simulated "large"
// desktop with one change, beside a full re-read of the same window.
func benchPoll() ([]row, error) {
	data, _ := fixtures.Desktop("large")
	spec, err := sim.Parse("large", data)
	if err != nil {
		return nil, err
	}
	desk, err := sim.New(spec)
	if err != nil {
		return nil, err
	}
	defer desk.Close()
	o := observer.New(desk)
	var diffs atomic.Int64 // the sink runs on the poller's goroutines
	p := live.NewPoller(o, func(model.Diff) bool { diffs.Add(1); return true },
		live.PollInterval(time.Hour), live.PollResync(0)) // cycles only when asked
	if err := p.Start(); err != nil {
		return nil, err
	}
	defer p.Stop()
	ctx := context.Background()
	p.PollNow(ctx) // the first cycle reads the whole window
	readsBefore := totalReads(p)
	var cycles []time.Duration
	const n = 200
	for i := range n {
		if err := desk.SetTitle(601, "import", fmt.Sprintf("Import %d", i)); err != nil {
			return nil, err
		}
		// The change's notification reaches the poller asynchronously: time the cycle that
		// publishes its diff.
		for before := diffs.Load(); diffs.Load() == before; {
			t0 := time.Now()
			p.PollNow(ctx)
			if diffs.Load() > before {
				cycles = append(cycles, time.Since(t0))
			} else {
				time.Sleep(50 * time.Microsecond)
			}
		}
	}
	perCycle := float64(totalReads(p)-readsBefore) / n

	wins, err := desk.Windows(ctx, 601)
	if err != nil {
		return nil, err
	}
	var full []time.Duration
	for range 20 {
		t0 := time.Now()
		observer.Walk(ctx, desk, wins[0].Ref, observer.WalkOptions{Budget: model.WideBudget()})
		full = append(full, time.Since(t0))
	}
	return []row{
		{"poll", "one change on a 4,000-element sim window: cycle p50 / p99", p50p99(cycles),
			fmt.Sprintf("%.1f elements read per change; %d changes, each one diff", perCycle, n), "", ""},
		{"poll", "full re-read of the same window p50 / p99 (what a resync costs)", p50p99(full), "4,000 elements read", "", ""},
	}, nil
}

func totalReads(p *live.Poller) uint64 {
	var n uint64
	for _, s := range p.Stats() {
		n += s.Reads
	}
	return n
}
