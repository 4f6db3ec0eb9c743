package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/headless"
	"github.com/nats-io/nats.go"
)

func init() {
	platformSuites = append(platformSuites, suite{"chromium", benchChromium})
}

// webDaemon is a daemon on a headless desktop that shows a page of fixtures/web in Chromium.
type webDaemon struct {
	browser *headless.Browser
	nc      *nats.Conn
	client  *client.Client
	subj    api.Subjects
}

func startWebDaemon(page string) (*webDaemon, func(), error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := headless.Start(ctx)
	if err != nil {
		return nil, nil, err
	}
	b, err := s.StartBrowser(ctx, page)
	if err != nil {
		_ = s.Close()
		return nil, nil, err
	}
	d, stop, err := startWithClient(sessionConfig(s))
	if err != nil {
		_ = s.Close()
		return nil, nil, err
	}
	return &webDaemon{browser: b, nc: d.nc, client: d.client, subj: d.Subjects}, func() { stop(); _ = s.Close() }, nil
}

// schedule has a page script add a paragraph with text 20 ms from now, at the top of the page's
// messages (where a look at what is on screen sees it), and note when it did. A change made by
// the script itself, not by DevTools: Chromium delays the accessibility update of a change
// DevTools makes by ~130 ms, not one of the page's own timers.
func (w *webDaemon) schedule(ctx context.Context, text string) error {
	_, err := w.browser.Eval(ctx, fmt.Sprintf(`(() => { setTimeout(() => {
		const p = document.createElement('p'); p.textContent = %q; document.getElementById('messages').prepend(p);
		(window.__at = window.__at || {})[%q] = Date.now(); }, 20); return 0; })()`, text, text))
	return err
}

// changedAt is when the page's script made the change schedule asked for, in wall time (to the
// ms); it waits for the script to have run.
func (w *webDaemon) changedAt(ctx context.Context, text string) (time.Time, error) {
	raw, err := w.browser.Eval(ctx, fmt.Sprintf(`new Promise(done => { const look = () => {
		const t = (window.__at || {})[%q]; if (t) done(t); else setTimeout(look, 5); }; look(); })`, text))
	if err != nil {
		return time.Time{}, err
	}
	var ms int64
	if err := json.Unmarshal(raw, &ms); err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(ms), nil
}

// benchChromium: Chromium on the fixture pages. The long page (2,000 rows, ~16,000 elements):
// an unscoped inspect and a whole read. The form page: a script's change to a NATS subscriber
// of the events and to our wait's reply, beside a 100 ms inspect loop; click Save + expect
// the text its script adds 300 ms later.
func benchChromium() ([]row, error) {
	rows, err := benchChromiumLongPage()
	if err != nil {
		return rows, err
	}
	more, err := benchChromiumPage()
	return append(rows, more...), err
}

func benchChromiumLongPage() ([]row, error) {
	w, stop, err := startWebDaemon("long.html")
	if err != nil {
		return nil, err
	}
	defer stop()
	ctx := context.Background()
	app := api.AppTarget{PID: w.browser.PID}
	var inspects, reads []time.Duration
	var walked, readElems int
	for i := range 12 {
		t0 := time.Now()
		insp, err := w.client.Inspect(ctx, api.InspectRequest{AppTarget: app})
		if err != nil {
			return nil, err
		}
		if i > 1 { // the first reads meet a cold tree and cold caches
			inspects = append(inspects, time.Since(t0))
		}
		walked = insp.Walked
	}
	for i := range 4 {
		t0 := time.Now()
		r, err := w.client.Read(ctx, api.ReadRequest{AppTarget: app})
		if err != nil {
			return nil, err
		}
		if i > 0 {
			reads = append(reads, time.Since(t0))
		}
		readElems = r.Elements
		if !strings.Contains(r.Text, "Row 2000") {
			return nil, fmt.Errorf("the read of the long page misses its last row (%d elements, truncated %v)", r.Elements, r.Truncation)
		}
	}
	perSec := func(n int, d time.Duration) string { return fmt.Sprintf("%.0f elements/s", float64(n)/d.Seconds()) }
	return []row{
		{"chromium", "long page (2,000 rows): unscoped inspect, p50 / p99", p50p99(inspects),
			fmt.Sprintf("%d runs; %d elements walked, %s at p50", len(inspects), walked, perSec(walked, percentile(inspects, 50))), "", ""},
		{"chromium", "long page: read of the window (whole), p50 / p99", p50p99(reads),
			fmt.Sprintf("%d warm runs; %d elements, %s at p50", len(reads), readElems, perSec(readElems, percentile(reads, 50))), "", ""},
	}, nil
}

func benchChromiumPage() ([]row, error) {
	w, stop, err := startWebDaemon("page.html")
	if err != nil {
		return nil, err
	}
	defer stop()
	ctx := context.Background()
	pid := w.browser.PID
	app := api.AppTarget{PID: pid}

	// A script's change -> a subscriber of the page's events.
	events := make(chan time.Time, 64)
	sub, err := w.nc.Subscribe(w.subj.AllEvents(), func(m *nats.Msg) {
		var env api.Envelope
		if json.Unmarshal(m.Data, &env) == nil && env.App.PID == pid && env.Type == model.EventChildrenChanged {
			select {
			case events <- time.Now():
			default:
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if err := w.nc.Flush(); err != nil {
		return nil, err
	}
	var toSubscriber []time.Duration
	for i := range 20 {
		drain(events)
		text := fmt.Sprint("event ", i)
		if err := w.schedule(ctx, text); err != nil {
			return nil, err
		}
		var at time.Time
		select {
		case at = <-events:
		case <-time.After(5 * time.Second):
			return nil, fmt.Errorf("no children_changed from the page within 5 s")
		}
		changed, err := w.changedAt(ctx, text)
		if err != nil {
			return nil, err
		}
		toSubscriber = append(toSubscriber, at.Sub(changed))
	}
	_ = sub.Unsubscribe()

	// A script's change -> our wait's reply, and -> a 100 ms inspect loop, interleaved.
	var ours, polled []time.Duration
	for i := range 40 {
		text := fmt.Sprintf("mark %d", i)
		if i%2 == 0 {
			r, err := w.client.WaitAfter(ctx, api.WaitRequest{Expr: fmt.Sprintf("text=%q", text), AppTarget: app, TimeoutMS: 5000},
				func(ctx context.Context) error { return w.schedule(ctx, text) })
			answered := time.Now()
			if err != nil {
				return nil, err
			}
			if r.Outcome != api.WaitMet {
				return nil, fmt.Errorf("wait for %q: %s", text, r.Outcome)
			}
			changed, err := w.changedAt(ctx, text)
			if err != nil {
				return nil, err
			}
			ours = append(ours, answered.Sub(changed))
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		found, errs := make(chan time.Time, 1), make(chan error, 1)
		go func() {
			at, err := inspectPoll(pctx, w.client, pid, text)
			found <- at
			errs <- err
		}()
		time.Sleep(time.Duration(i*7%100) * time.Millisecond) // the change lands anywhere in the polling period
		if err := w.schedule(ctx, text); err != nil {
			cancel()
			return nil, err
		}
		at := <-found
		cancel()
		if err := <-errs; err != nil {
			return nil, err
		}
		changed, err := w.changedAt(ctx, text)
		if err != nil {
			return nil, err
		}
		polled = append(polled, at.Sub(changed))
	}

	// Click Save + expect "Saved N" (the page adds it 300 ms after the press).
	if _, err := w.browser.Eval(ctx, `document.getElementById('messages').replaceChildren()`); err != nil {
		return nil, err
	}
	var clicks []time.Duration
	for i := range 10 {
		insp, err := w.client.Inspect(ctx, api.InspectRequest{AppTarget: app})
		if err != nil {
			return nil, err
		}
		var target string
		for _, e := range insp.Elements {
			if e.Identifier == "save" {
				target = insp.SnapshotID + ":" + e.ID
			}
		}
		if target == "" {
			return nil, fmt.Errorf("no Save button on the page")
		}
		want := "Saved"
		if i > 0 {
			want = fmt.Sprint("Saved ", i+1)
		}
		t0 := time.Now()
		r, err := w.client.Act(ctx, "click", api.ActionRequest{Target: target, Expect: &api.WaitRequest{Expr: fmt.Sprintf("text=%q", want), TimeoutMS: 5000}})
		if err != nil {
			return nil, err
		}
		if r.Mechanism != "accessibility" || r.Expect == nil || r.Expect.Outcome != api.WaitMet {
			return nil, fmt.Errorf("click Save: %s, expect %+v", r.Mechanism, r.Expect)
		}
		clicks = append(clicks, time.Since(t0))
	}
	return []row{
		{"chromium", "page script adds text -> NATS subscriber (children_changed), p50 / p99", p50p99(toSubscriber), fmt.Sprintf("%d changes by the page's timers, its own clock (ms)", len(toSubscriber)), "", ""},
		{"chromium", "page script adds text -> our wait's reply, p50 / p99", p50p99(ours), fmt.Sprintf("%d waits, interleaved with the loop below", len(ours)), "", ""},
		{"chromium", "page script adds text -> a 100 ms inspect loop sees it, p50 / p99", p50p99(polled),
			fmt.Sprintf("%d loops; ours is %s faster at p50", len(polled), ratio(percentile(polled, 50), percentile(ours, 50))), "", ""},
		{"chromium", "click Save (headless) + expect the text it adds 300 ms later, round trip p50 / p99", p50p99(clicks), fmt.Sprintf("%d actions", len(clicks)), "", ""},
	}, nil
}

func drain(c chan time.Time) {
	for {
		select {
		case <-c:
		default:
			return
		}
	}
}
