package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/headless"
)

func init() {
	platformSuites = append(platformSuites, suite{"chromium-wait-launch", benchBrowserLaunchWait})
}

// launches is how many browsers the suite starts, one a sample.
const launches = 8

// benchBrowserLaunchWait: a wait armed before Chromium runs (its app named, not running yet)
// for the paragraph page.html?add=TEXT adds 1.5 s after it loads; from the paragraph's addition
// (the page's own clock, read through DevTools) to the wait's reply. The browser's window is
// new to the daemon: its copy is read while the page loads and adds the text.
func benchBrowserLaunchWait() ([]row, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	s, err := headless.Start(ctx)
	cancel()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	d, closeDaemon, err := startWithClient(sessionConfig(s))
	if err != nil {
		return nil, err
	}
	defer closeDaemon()
	cl := d.client
	var lat []time.Duration
	for i := range launches {
		d, err := launchWait(cl, s, fmt.Sprint("Added ", i+1))
		if err != nil {
			return nil, err
		}
		lat = append(lat, d)
	}
	p50, p99 := percentile(lat, 50), percentile(lat, 99)
	return []row{{"wait", "Chromium opened after the wait (app by name): page.html adds a paragraph 1.5 s after load -> our wait's reply, p50 / p99", p50p99(lat),
		fmt.Sprintf("%d browsers, each started once the wait was armed; the page's clock (Date.now, ms); compared with the chromium suite's "+
			"wait on a page the daemon has read (tens of ms)", len(lat)), "p50 <= 50 ms, p99 <= 100 ms", verdict(p50 <= 50*time.Millisecond && p99 <= 100*time.Millisecond)}}, nil
}

// launchWait arms a wait for text in Chromium, starts a browser on page.html?add=text, and
// returns the time from the page's adding it to the wait's reply.
func launchWait(cl *client.Client, s *headless.Session, text string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	armed := make(chan struct{})
	type outcome struct {
		r   *api.WaitResult
		at  time.Time
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := cl.WaitAfter(ctx, api.WaitRequest{Expr: fmt.Sprintf("text=%q", text), AppTarget: api.AppTarget{App: "Chromium"}, TimeoutMS: 45000},
			func(context.Context) error { close(armed); return nil })
		done <- outcome{r, time.Now(), err}
	}()
	select {
	case <-armed:
	case o := <-done:
		return 0, fmt.Errorf("the wait ended before it listened: %+v %v", o.r, o.err)
	}
	b, err := s.StartBrowser(ctx, "page.html?add="+text)
	if err != nil {
		return 0, err
	}
	defer func() { _ = b.Kill(); _ = b.Wait() }()
	o := <-done
	if o.err != nil {
		return 0, o.err
	}
	if o.r.Outcome != api.WaitMet {
		return 0, fmt.Errorf("wait for %q: %s %+v", text, o.r.Outcome, o.r.Error)
	}
	raw, err := b.Eval(ctx, `window.addedAt || 0`)
	if err != nil {
		return 0, err
	}
	var ms int64
	if err := json.Unmarshal(raw, &ms); err != nil || ms == 0 {
		return 0, fmt.Errorf("the page did not note when it added %q: %s", text, raw)
	}
	return o.at.Sub(time.UnixMilli(ms)), nil
}
