package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/internal/pace"
	"github.com/axbus/axbus/internal/xwindows"
)

// registerWait is how long a window's process may take to register with AT-SPI after the doctor first sees it
// missing: an app that has just mapped its window may not have registered yet.
const registerWait = time.Second

// unseenApp is a process that shows windows but has no app registered with AT-SPI (pid 0: one window whose
// process is unknown).
type unseenApp struct {
	pid     int
	from    string // where the pid came from
	windows []xwindows.Window
}

// inaccessibleWindows lists the windows shown on the desktop's X display (mapped, with a title) whose process
// has no app registered with AT-SPI, which apps lists (the apps' PIDs), and reports each such process as a
// failed check, with why its toolkit is silent and the fix.
func (d *doctor) inaccessibleWindows(ctx context.Context, dd *doctorDesktop, apps func(context.Context) ([]model.App, error)) {
	const what = "X11 windows"
	if dd == nil || dd.Unreachable != "" {
		return // desktopChecks said why
	}
	x, err := dd.display()
	if err != nil && dd.Display != "" {
		d.skip(what, "cannot connect to the X display %s (see the AT_SPI_BUS check)", dd.Display)
		return
	}
	if err != nil {
		d.skip(what, "%v", err)
		return
	}
	wins, err := x.TopLevel()
	if err != nil {
		d.fail(what, model.Errorf(model.CodeUnavailable, "Run axbus doctor again; check that the X server runs.", "cannot list the windows of %s: %v", dd.Display, err))
		return
	}
	procs := procCache{}
	var unseen []unseenApp
	var listErr error
	_ = backoff.Retry(func() error {
		list, err := apps(ctx)
		if err != nil {
			listErr = err
			return backoff.Permanent(err)
		}
		registered := map[int]bool{}
		for _, a := range list {
			registered[a.PID] = true
		}
		if unseen = unregistered(wins, registered, procs); len(unseen) > 0 {
			return errNotRegistered
		}
		return nil
	}, pace.Every(ctx, 250*time.Millisecond, registerWait))
	if listErr != nil {
		d.skip(what, "the apps could not be listed: %v", listErr)
		return
	}
	if len(unseen) == 0 {
		d.pass(what, "%d on %s, each of an app registered with AT-SPI (X11 clients only)", len(wins), dd.Display)
		return
	}
	for _, u := range unseen {
		// A window that nothing on this desktop can make accessible (an Xt app, a remote client) is
		// worth knowing but no failure: a desktop with an xterm is not broken.
		if e, fixable := unseenError(u, procs, dd.facts); fixable {
			d.fail("inaccessible window", e)
		} else {
			d.warn("inaccessible window", e)
		}
	}
}

var errNotRegistered = errors.New("a window's process has not registered")

// unregistered groups the windows whose process speaks through no registered app by process, in the windows'
// order; windows of unknown processes stay one a group.
func unregistered(wins []xwindows.Window, registered map[int]bool, procs procCache) []unseenApp {
	var out []unseenApp
	at := map[int]int{}
	for _, w := range wins {
		if w.PID != 0 && registeredAs(w.PID, registered, procs) != 0 {
			continue
		}
		if i, ok := at[w.PID]; ok && w.PID != 0 {
			out[i].windows = append(out[i].windows, w)
			continue
		}
		at[w.PID] = len(out)
		out = append(out, unseenApp{pid: w.PID, from: w.PIDFrom, windows: []xwindows.Window{w}})
	}
	return out
}

// unseenError is the finding of one silent process: its windows, its toolkit, why, and the fix;
// fixable says whether its toolkit has one (an unknown toolkit or process has none).
func unseenError(u unseenApp, procs procCache, facts deskFacts) (_ *model.Error, fixable bool) {
	titles := make([]string, len(u.windows))
	for i, w := range u.windows {
		titles[i] = fmt.Sprintf("%q", w.Title)
	}
	shown := strings.Join(titles, ", ")
	if u.pid == 0 {
		return model.Errorf(model.CodeUnavailable,
			"axbus reads the accessibility bus of this desktop only: run the app on this machine (or an axbus daemon where it runs).",
			"%s (window %#x): its process is unknown: neither its _NET_WM_PID nor the X server (X-Resource) names one, as for a client on another machine",
			shown, u.windows[0].ID), false
	}
	p := procs.get(u.pid)
	diag := diagnose(p, facts)
	from := ""
	if u.from == xwindows.PIDFromXRes {
		from = ", pid from X-Resource"
	}
	return model.Errorf(model.CodeUnavailable, diag.Fix, "%s of %s (pid %d, %s%s): no app registered with AT-SPI: %s",
		shown, p.name(), u.pid, diag.Toolkit, from, diag.Why), diag.Toolkit != tkUnknown
}
