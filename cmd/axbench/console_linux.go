package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/model"
)

func init() {
	platformSuites = append(platformSuites, suite{"console", benchConsole})
}

// The console suite's load: single events for the latency, then a storm at stormRate for
// stormFor.
const (
	consoleSamples = 300
	stormRate      = 1000
	stormFor       = 20 * time.Second
)

// benchConsole: the web console in Chromium (on a headless desktop, driven over DevTools) on a
// simulated desktop's daemon, its Live view open. An event published by the daemon's publisher
// -> its row on the page (the page's Date.now() less the event's time: one clock), p50 / p99;
// then 1,000 events/s for 20 s: the page's frame times (requestAnimationFrame) p99 and its
// JavaScript heap at the end.
func benchConsole() ([]row, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := headless.Start(ctx)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	cfg := simDemo
	cfg.Console = "127.0.0.1:0"
	cd, stop, err := startWithClient(cfg)
	if err != nil {
		return nil, err
	}
	defer stop()
	b, err := s.StartBrowser(ctx, cd.Console.URL(api.RoleMonitor))
	if err != nil {
		return nil, err
	}
	defer func() { _ = b.Kill(); _ = b.Wait() }()
	eval := func(js string, v any) error {
		raw, err := b.Eval(ctx, js)
		if err != nil {
			return err
		}
		return json.Unmarshal(raw, v)
	}
	if err := waitPage(ctx, eval); err != nil {
		return nil, err
	}
	var ignored string
	if err := eval(`document.querySelector('[data-view=live]').click(); 'ok'`, &ignored); err != nil {
		return nil, err
	}
	event := func(i int) model.Event {
		return model.Event{App: model.AppRef{Name: "Notes", PID: 501}, Type: model.EventValueChanged, Time: time.Now(),
			Element: &model.ElementSummary{Role: model.RoleTextField, Name: "Title", Value: fmt.Sprint("bench ", i)}}
	}
	for i := range consoleSamples { // one at a time, so that each is its own frame's
		cd.Pub.Offer(event(i))
		time.Sleep(20 * time.Millisecond) // the rate is what is measured: 50 events/s
	}
	var lags []float64
	if err := eventually(ctx, eval, `window.axbus.shownLag.length >= `+fmt.Sprint(consoleSamples), `window.axbus.shownLag`, &lags); err != nil {
		return nil, err
	}
	if err := eval(`(window.axbus.frames.length = 0, 'ok')`, &ignored); err != nil {
		return nil, err
	}
	start := time.Now()
	tick := time.NewTicker(10 * time.Millisecond)
	sent := 0
	for time.Since(start) < stormFor {
		<-tick.C
		for due := int(time.Since(start).Seconds() * stormRate); sent < due; sent++ {
			cd.Pub.Offer(event(sent))
		}
	}
	tick.Stop()
	var frames []float64
	var seen int
	if err := eventually(ctx, eval, fmt.Sprintf(`window.axbus.events >= %d`, consoleSamples+sent), `window.axbus.frames`, &frames); err != nil {
		return nil, err
	}
	if err := eval(`window.axbus.events`, &seen); err != nil {
		return nil, err
	}
	heap, err := b.HeapUsed(ctx)
	if err != nil {
		return nil, err
	}
	l50, l99 := quantile(lags, 0.5), quantile(lags, 0.99)
	f99 := quantile(frames, 0.99)
	return []row{
		{"console", "an event published -> its row on the console's page (Chromium, Live view), p50 / p99", fmt.Sprintf("%.0f / %.0f ms", l50, l99),
			fmt.Sprintf("%d events at 50/s; the page's clock less the event's time (ms)", len(lags)), "p50 <= 50 ms, p99 <= 100 ms", verdict(l50 <= 50 && l99 <= 100)},
		{"console", "1,000 events/s for 20 s: the page's frame time p99, its JavaScript heap at the end", fmt.Sprintf("%.0f ms, %.1f MiB", f99, heap/(1<<20)),
			fmt.Sprintf("%d events sent, %d seen; %d frames; the page keeps 5,000 events and shows 300 rows", sent, seen-consoleSamples, len(frames)),
			"frame p99 <= 50 ms, heap <= 64 MiB", verdict(f99 <= 50 && heap <= 64<<20)},
	}, nil
}

// waitPage waits for the console's page to connect.
func waitPage(ctx context.Context, eval func(string, any) error) error {
	var state string
	return eventually(ctx, eval, `window.axbus && window.axbus.ready`, `String(window.axbus.ready) + window.axbus.error`, &state)
}

// eventually evaluates cond in the page every 50 ms until it is true, then evaluates value into v.
func eventually(ctx context.Context, eval func(string, any) error, cond, value string, v any) error {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for {
		var ok bool
		if err := eval(`Boolean(`+cond+`)`, &ok); err == nil && ok {
			return eval(value, v)
		}
		select {
		case <-ctx.Done():
			_ = eval(value, v)
			return fmt.Errorf("the console's page: %s never held (%v): %w", cond, v, ctx.Err())
		case <-t.C:
		}
	}
}

// quantile is the q-th quantile of xs (nearest rank).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	return s[min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1)]
}
