package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer/sim"
)

// benchSimWaits: on the simulated desktop, the latency from a change to the wait's reply at the
// client, alone and beside 1,000 other pending waits, side by side.
func benchSimWaits() ([]row, error) {
	d, stop, err := startWithClient(simDemo)
	if err != nil {
		return nil, err
	}
	defer stop()
	client := d.client
	desk := d.Backend.(*sim.Desktop)
	seq := 0
	// one wait for a label that appears once the wait listens
	once := func() (time.Duration, error) {
		seq++
		text := fmt.Sprintf("mark %d", seq)
		var changed time.Time
		r, err := client.WaitAfter(context.Background(), api.WaitRequest{Expr: fmt.Sprintf("text=%q", text), AppTarget: api.AppTarget{PID: 501}, TimeoutMS: 5000},
			func(context.Context) error {
				v := sim.Text(text)
				err := desk.AddNode(501, "toolbar", sim.NodeSpec{ID: fmt.Sprint("mark", seq), Role: "AXStaticText", Value: &v, Frame: []float64{300, 84, 60, 20}})
				changed = time.Now() // right after the change, as the GTK fixture stamps it (the sim checks a node first)
				return err
			})
		if err != nil {
			return 0, err
		}
		took := time.Since(changed)
		if r.Outcome != api.WaitMet {
			return 0, fmt.Errorf("wait for %q: %s", text, r.Outcome)
		}
		// every sample waits on the same window: the label goes again
		return took, desk.RemoveNode(501, fmt.Sprint("mark", seq))
	}
	const samples = 1000
	for range 100 { // warm-up, as for the API's round trips: the app's copy, the snapshot store
		if _, err := once(); err != nil {
			return nil, err
		}
	}
	var alone, crowded []time.Duration
	for range samples {
		l, err := once()
		if err != nil {
			return nil, err
		}
		alone = append(alone, l)
	}
	// 1,000 waits that never hold, all listening
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	armed := make(chan struct{}, 1000)
	for i := range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = client.WaitAfter(ctx, api.WaitRequest{Expr: fmt.Sprintf(`text="never %d"`, i), AppTarget: api.AppTarget{PID: 501}, TimeoutMS: 60000},
				func(context.Context) error { armed <- struct{}{}; return nil })
		}()
	}
	for range 1000 {
		<-armed
	}
	for range samples {
		l, err := once()
		if err != nil {
			cancel()
			return nil, err
		}
		crowded = append(crowded, l)
	}
	cancel()
	wg.Wait()
	ratio := float64(percentile(crowded, 50)) / float64(percentile(alone, 50))
	return []row{
		{"wait", "sim: change -> wait reply at the client, p50 / p99 (target p99 < 2 ms)", p50p99(alone), fmt.Sprintf("%d waits over TCP, one at a time", samples), "", ""},
		{"wait", "sim: the same beside 1,000 pending waits, p50 / p99", p50p99(crowded), fmt.Sprintf("p50 ratio %.2fx (target <= 2x)", ratio), "", ""},
	}, nil
}
