package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/internal/headless"
)

func init() {
	platformSuites = append(platformSuites, suite{"atspi-wait", benchATSPIWaits})
}

// benchATSPIWaits: on the GTK3 fixture, the latency from a label added in the app (the app's
// own clock, right after the change) to the answer at the client: our wait against a loop that
// inspects every 100 ms through the same endpoints (what the peers do), interleaved.
func benchATSPIWaits() ([]row, error) {
	dd, stop, err := startDesktopDaemon(headless.KindGTK3)
	if err != nil {
		return nil, err
	}
	defer stop()
	pid := dd.app.PID
	ctx := context.Background()
	var ours, polled []time.Duration
	for i := range 40 {
		text := fmt.Sprintf("mark %d", i)
		var changed time.Time
		if i%2 == 0 {
			r, err := dd.client.WaitAfter(ctx, api.WaitRequest{Expr: fmt.Sprintf("text=%q", text), AppTarget: api.AppTarget{PID: pid}, TimeoutMS: 5000},
				func(ctx context.Context) error {
					reply, err := dd.app.Do(ctx, map[string]any{"cmd": "add_label", "text": text})
					if err == nil {
						changed = time.Unix(0, reply["t_ns"].(int64))
					}
					return err
				})
			if err != nil {
				return nil, err
			}
			if r.Outcome != api.WaitMet {
				return nil, fmt.Errorf("wait for %q: %s", text, r.Outcome)
			}
			ours = append(ours, time.Since(changed))
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		found := make(chan time.Time, 1)
		errs := make(chan error, 1)
		go func() {
			at, err := inspectPoll(pctx, dd.client, pid, text)
			found <- at
			errs <- err
		}()
		time.Sleep(time.Duration(i*7%100) * time.Millisecond) // the change lands anywhere in the polling period
		reply, err := dd.app.Do(ctx, map[string]any{"cmd": "add_label", "text": text})
		if err != nil {
			cancel()
			return nil, err
		}
		changed = time.Unix(0, reply["t_ns"].(int64))
		at := <-found
		cancel()
		if err := <-errs; err != nil {
			return nil, err
		}
		polled = append(polled, at.Sub(changed))
	}
	return []row{
		{"wait", "GTK3: label added -> our wait's reply, p50 / p99 (target p50 < 20 ms, p99 < 60 ms)", p50p99(ours), "20 waits over TCP, interleaved with the loop below"},
		{"wait", "GTK3: label added -> a 100 ms inspect loop sees it, p50 / p99", p50p99(polled),
			fmt.Sprintf("20 loops; ours is %.1fx faster at p50", float64(percentile(polled, 50))/float64(percentile(ours, 50)))},
	}, nil
}

// inspectPoll is the peers' way to wait: inspect every 100 ms until the text shows.
func inspectPoll(ctx context.Context, client *bus.Client, pid int, text string) (time.Time, error) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		insp, err := client.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: pid}})
		if err != nil {
			return time.Time{}, err
		}
		for _, e := range insp.Elements {
			if strings.TrimSpace(e.Name) == text || strings.TrimSpace(e.Text) == text {
				return time.Now(), nil
			}
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-t.C:
		}
	}
}
