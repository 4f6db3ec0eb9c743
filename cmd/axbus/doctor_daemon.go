package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
)

// daemon checks the daemon that runs, as its clients see it: it answers status, lists apps,
// inspects the frontmost window, and its events reach a NATS subscriber. The desktop it serves
// (its headless one, or the one its environment names) is checked from this process when it can
// be reached from here: the root window's AT_SPI_BUS, IsEnabled, the windows of silent apps.
func (d *doctor) daemon(ctx context.Context, info embedded.Info, stateDir string, watch time.Duration) error {
	nc, _, err := embedded.Connect(stateDir)
	if !d.check("daemon", err) {
		return d.verdict()
	}
	defer nc.Close()
	cl, err := client.New(ctx, nc)
	if !d.check("daemon", err) {
		return d.verdict()
	}
	st, err := cl.Status(ctx)
	if !d.check("daemon", err) {
		return d.verdict()
	}
	d.pass("daemon", "axbus %s serving host %q with the %s backend at %s (pid %d, up %v); axbus doctor --standalone checks this desktop without it",
		st.Version, st.Host, st.Backend, info.URL, info.PID, time.Since(st.Started).Round(time.Second))
	dd := desktopOfDaemon(info, st.Backend)
	defer dd.close()
	d.desktopChecks(ctx, dd)
	if st.Events.Dropped > 0 {
		d.fail("event queue", model.Errorf(model.CodeTransient, "The desktop sends more events than NATS takes; see axbus status.",
			"%d of %d events dropped", st.Events.Dropped, st.Events.Published+st.Events.Dropped))
	}

	apps, err := cl.Apps(ctx)
	if !d.check("apps", err) {
		return d.verdict()
	}
	if len(apps) == 0 {
		d.fail("apps", model.Errorf(model.CodeAppNotFound, "Start an app with a window, then run axbus doctor again.", "no app exposes an accessibility tree"))
		d.inaccessibleWindows(ctx, dd, cl.Apps) // the windows on screen say which apps are silent
		return d.verdict()
	}
	var names []string
	for _, a := range apps {
		names = append(names, fmt.Sprintf("%s (pid %d)", a.Name, a.PID))
	}
	d.pass("apps", "%d: %s", len(apps), strings.Join(names, ", "))
	d.inaccessibleWindows(ctx, dd, cl.Apps)

	if app, win, ok := d.frontWindow(ctx, cl, apps); ok {
		start := time.Now()
		insp, err := cl.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: app.PID}, Window: win.ID})
		if d.check("inspect", err) {
			d.pass("inspect", "%s %q of %s: %d elements listed, %d walked, %d off screen, truncated %v, in %v",
				win.Role, win.Title, app.Name, len(insp.Elements), insp.Walked, insp.OffscreenOmitted, insp.Truncated, time.Since(start).Round(time.Millisecond))
		}
	}
	d.busEvents(ctx, nc, cl.Subjects(), info.StateDir, watch)
	return d.verdict()
}

// frontWindow is the focused window of the first app that has one, else any app's first window.
func (d *doctor) frontWindow(ctx context.Context, c *client.Client, apps []model.App) (model.App, model.Window, bool) {
	var firstApp model.App
	var first *model.Window
	for _, a := range apps {
		r, err := c.Windows(ctx, api.AppTarget{PID: a.PID})
		if err != nil {
			continue
		}
		for i := range r.Windows {
			if r.Windows[i].Focused {
				return a, r.Windows[i], true
			}
			if first == nil {
				first, firstApp = &r.Windows[i], a
			}
		}
	}
	if first == nil {
		d.fail("inspect", model.Errorf(model.CodeWindowNotFound, "Open a window of an app, then run axbus doctor again.", "no app has a window"))
		return model.App{}, model.Window{}, false
	}
	return firstApp, *first, true
}

// busEvents subscribes to the host's events for the given time and counts them by type. When
// the daemon runs a headless desktop it toggles the fixture's checkbox, so that there is
// something to see.
func (d *doctor) busEvents(ctx context.Context, nc *nats.Conn, subj api.Subjects, stateDir string, watch time.Duration) {
	var seen eventTally
	sub, err := nc.Subscribe(subj.AllEvents(), func(m *nats.Msg) {
		var env api.Envelope
		if json.Unmarshal(m.Data, &env) == nil {
			seen.add(env.Type)
		}
	})
	if err == nil {
		err = nc.Flush() // the subscription is the server's before the fixture changes
	}
	if !d.check("events", err) {
		return
	}
	defer func() { _ = sub.Unsubscribe() }()
	hint := "Use the desktop (click, type) while axbus doctor watches, or watch longer (--watch 15s)."
	if socks, _ := filepath.Glob(filepath.Join(stateDir, "headless", "*.sock")); len(socks) > 0 &&
		controlFixture(ctx, socks[0], map[string]any{"cmd": "toggle"}) == nil {
		hint = "The fixture app changed but no event came through NATS: see the daemon's log."
	}
	d.tallied(ctx, &seen, watch, subj.AllEvents(), hint)
}
