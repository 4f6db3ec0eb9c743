package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/pace"
	"github.com/axbus/axbus/observer"
)

type doctorCmd struct {
	Backend    string        `enum:"auto,atspi,ax,sim" default:"auto" help:"accessibility backend of a standalone check."`
	Headless   string        `enum:"never,auto,always" default:"auto" help:"a standalone check on a private headless desktop with the GTK fixture app: never, auto (when there is no desktop session) or always (Linux)."`
	Watch      time.Duration `default:"5s" help:"how long to watch events."`
	Standalone bool          `help:"check in this process, on a desktop of its own, even when a daemon runs."`
	StateDir   string        `placeholder:"DIR" type:"path" help:"state dir of the daemon to check (default: the user's state dir)."`
}

// Run checks the daemon that runs on the state dir, when one does (its status, apps, an
// inspection, events through NATS); otherwise, or with --standalone, it checks in this process
// what a daemon needs from this desktop: the accessibility backend opens (on macOS: the
// accessibility grant; on Linux: the AT-SPI bus), apps are listed, the frontmost window is
// inspected, events arrive. On Linux it also checks what Qt and Chromium need from the desktop
// (AT_SPI_BUS on the root window, org.a11y.Status IsEnabled) and names the X11 windows whose
// process has no app registered with AT-SPI, each with its toolkit's fix. It prints a report to
// paste into an issue and exits non-zero when a check failed.
func (c *doctorCmd) Run(e *env) error {
	ctx, out := e.ctx, e.stdout
	d := &doctor{out: out}
	d.line("axbus doctor %s, %s/%s, %s, %s", api.Version, runtime.GOOS, runtime.GOARCH, runtime.Version(), time.Now().UTC().Format(time.RFC3339))
	if !c.Standalone && !c.forced() {
		if info, err := embedded.Discover(c.StateDir); err == nil {
			return d.daemon(ctx, info, c.StateDir, c.Watch)
		}
	}
	cfg := daemon.Config{Log: slog.New(slog.DiscardHandler), Backend: c.Backend, Headless: c.Headless}
	watch := c.Watch

	dir, err := os.MkdirTemp("", "axbus-doctor-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	desk, err := daemon.StartHeadless(&cfg, dir)
	if !d.check("headless desktop", err) {
		return d.verdict()
	}
	if desk != nil {
		defer desk.Close()
		d.pass("headless desktop", "private Xvfb %s, AT-SPI bus, fixture app %s (pid %d)", desk.Session.Display, headless.AppName(desk.App.Kind), desk.App.PID)
	} else {
		d.pass("headless desktop", "not used: serving this desktop session")
	}
	dd := desktopHere(cfg, desk)
	defer dd.close()
	d.desktopChecks(ctx, dd) // before the backend opens: it turns IsEnabled on

	b, err := daemon.OpenBackend(cfg)
	if !d.check("accessibility backend", err) {
		return d.verdict()
	}
	defer b.Close()
	d.pass("accessibility backend", "%s", b.Platform())
	o := observer.New(b)

	apps, err := o.Apps(ctx)
	if !d.check("apps", err) {
		return d.verdict()
	}
	var names []string
	for _, a := range apps {
		names = append(names, fmt.Sprintf("%s (pid %d)", a.Name, a.PID))
	}
	if len(apps) == 0 {
		d.fail("apps", model.Errorf(model.CodeAppNotFound, "Start an app with a window, then run axbus doctor again.", "no app exposes an accessibility tree"))
		d.inaccessibleWindows(ctx, dd, o.Apps) // the windows on screen say which apps are silent
		return d.verdict()
	}
	d.pass("apps", "%d: %s", len(apps), strings.Join(names, ", "))
	d.inaccessibleWindows(ctx, dd, o.Apps)
	d.browsers(ctx, o, apps)

	app, win, ok := d.frontmost(ctx, o, apps, desk)
	if ok {
		start := time.Now()
		insp, err := o.Inspect(ctx, observer.InspectRequest{App: model.AppQuery{PID: app.PID}, Window: win.ID})
		if d.check("inspect", err) {
			d.pass("inspect", "%s %q of %s: %d elements listed, %d walked, %d off screen, truncated %v, in %v",
				win.Role, win.Title, app.Name, len(insp.Elements), insp.Walked, insp.OffscreenOmitted, insp.Truncated, time.Since(start).Round(time.Millisecond))
		}
	}

	d.events(ctx, o, watch, desk)
	return d.verdict()
}

// doctor prints the report and counts the failures.
type doctor struct {
	out    io.Writer
	failed int
	first  *model.Error // the first failure decides the exit status
}

func (d *doctor) line(format string, args ...any) { fmt.Fprintf(d.out, format+"\n", args...) }

func (d *doctor) pass(what, format string, args ...any) {
	d.line("ok    %-22s %s", what, fmt.Sprintf(format, args...))
}

func (d *doctor) fail(what string, err error) {
	d.failed++
	e := model.AsError(err)
	if d.first == nil {
		d.first = e
	}
	d.line("FAIL  %-22s %s: %s", what, e.Code, e.Message)
	d.line("      %-22s fix: %s", "", e.Suggestion)
}

// check reports err as a failure; it returns whether there was none.
func (d *doctor) check(what string, err error) bool {
	if err != nil {
		d.fail(what, err)
	}
	return err == nil
}

// forced says that the flags ask for a standalone check: a backend or a headless desktop of its
// own.
func (c *doctorCmd) forced() bool { return c.Backend != "auto" || c.Headless == "always" }

func (d *doctor) verdict() error {
	if d.failed == 0 {
		d.line("all checks passed")
		return nil
	}
	return quiet(model.Errorf(d.first.Code, "Fix the failed checks above, then run axbus doctor again.", "%d check(s) failed", d.failed))
}

// browsers checks that each Chromium-based app (browser or Electron) exposes its web content. Chromium 156
// registers its app and windows in AT-SPI only if org.a11y.Status.IsEnabled (which axbus turns on when it
// starts) is on at its start, and builds the tree of its UI and pages either when started with
// --force-renderer-accessibility or, otherwise, some 70 ms after an assistive technology first reads an
// element's attributes, as axbus does; --disable-platform-accessibility-integration prevents the latter. So an
// app without content is read again for up to browserWait before it is reported.
func (d *doctor) browsers(ctx context.Context, o *observer.Observer, apps []model.App) {
	var ok []string
	off := 0
	for _, a := range apps {
		if !isChromium(a) {
			continue
		}
		_, wins, err := o.Windows(ctx, model.AppQuery{PID: a.PID})
		if err != nil || len(wins) == 0 {
			continue // no window to have content (or gone): nothing to say
		}
		var areas, filled int
		_ = backoff.Retry(func() error {
			if areas, filled = webAreas(ctx, o.Backend(), wins); filled == 0 {
				return errNoContent
			}
			return nil
		}, pace.Every(ctx, 100*time.Millisecond, browserWait))
		if filled > 0 {
			ok = append(ok, fmt.Sprintf("%s (pid %d): %d web area(s) with content", a.Name, a.PID, filled))
			continue
		}
		off++
		what := "no web area"
		if areas > 0 {
			what = fmt.Sprintf("%d empty web area(s)", areas)
		}
		d.fail("browser accessibility", model.Errorf(model.CodeUnavailable,
			"Restart it with --force-renderer-accessibility (Electron apps take the same switch); it wins over --disable-platform-accessibility-integration, which keeps Chromium's tree off whatever reads it.",
			"%s (pid %d, toolkit %s): accessibility is off: %d window(s), %s in its accessibility tree after %v",
			a.Name, a.PID, a.Toolkit, len(wins), what, browserWait))
	}
	switch {
	case len(ok) > 0:
		d.pass("browser accessibility", "%s", strings.Join(ok, "; "))
	case off == 0:
		d.pass("browser accessibility", "no Chromium-based app with a window")
	}
}

// browserWait is how long a Chromium-based app may take to build its tree once read.
const browserWait = 2 * time.Second

var errNoContent = errors.New("no web content yet")

// isChromium reports whether an app is Chromium-based: a browser or an Electron app, whose toolkit (the
// AT-SPI Application.ToolkitName) is Chromium.
func isChromium(a model.App) bool {
	tk, name := strings.ToLower(a.Toolkit), strings.ToLower(a.Name)
	return strings.Contains(tk, "chrom") || strings.Contains(tk, "electron") ||
		slices.Contains([]string{"chromium", "google chrome", "chrome", "electron"}, name)
}

// webAreas walks the windows breadth first, 12 levels and 2,000 elements at most, without entering a web area
// (a page may hold thousands of elements), and counts the web areas and those with children.
func webAreas(ctx context.Context, r observer.Reader, wins []model.Window) (areas, filled int) {
	var level []model.NodeRef
	for _, w := range wins {
		level = append(level, w.Ref)
	}
	for depth, read := 0, 0; depth < 12 && len(level) > 0 && read < 2000; depth++ {
		read += len(level)
		var next []model.NodeRef
		for _, n := range r.Read(ctx, level) {
			switch {
			case n.Err != nil:
			case n.Role == model.RoleWebArea:
				areas++
				if len(n.Children) > 0 {
					filled++
				}
			default:
				next = append(next, n.Children...)
			}
		}
		level = next
	}
	return areas, filled
}

// frontmost picks the window to inspect: the fixture's on the headless desktop, else the
// focused window of the first app that has one, else the first window of any app.
func (d *doctor) frontmost(ctx context.Context, o *observer.Observer, apps []model.App, desk *daemon.Headless) (model.App, model.Window, bool) {
	var first *model.Window
	var firstApp model.App
	for _, a := range apps {
		if desk != nil && a.PID != desk.App.PID {
			continue
		}
		_, wins, err := o.Windows(ctx, model.AppQuery{PID: a.PID})
		if err != nil {
			continue
		}
		for i := range wins {
			if wins[i].Focused {
				return a, wins[i], true
			}
			if first == nil {
				first, firstApp = &wins[i], a
			}
		}
	}
	if first == nil {
		d.fail("inspect", model.Errorf(model.CodeWindowNotFound, "Open a window of an app, then run axbus doctor again.", "no app has a window"))
		return model.App{}, model.Window{}, false
	}
	return firstApp, *first, true
}

// events watches for the given time and counts the events by type. On the headless desktop it
// toggles the fixture's checkbox once, so that there is something to see.
func (d *doctor) events(ctx context.Context, o *observer.Observer, watch time.Duration, desk *daemon.Headless) {
	var seen eventTally
	token, err := o.Subscribe(func(e model.Event) { seen.add(e.Type) })
	if !d.check("events", err) {
		return
	}
	defer o.Unsubscribe(token)
	if desk != nil {
		if _, err := desk.App.Do(ctx, map[string]any{"cmd": "toggle"}); err != nil {
			d.fail("events", model.Errorf(model.CodeUnavailable, "Restart axbus doctor.", "the fixture app did not take a toggle: %v", err))
		}
	}
	hint := "Use the desktop (click, type) while axbus doctor watches, or watch longer (--watch 15s)."
	if desk != nil {
		hint = "The fixture app changed but no event came: AT-SPI events are not delivered; check at-spi2-core."
	}
	d.tallied(ctx, &seen, watch, "", hint)
}

// eventTally counts events by type as they come.
type eventTally struct {
	mu     sync.Mutex
	counts map[model.EventType]int
}

func (t *eventTally) add(typ model.EventType) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[model.EventType]int{}
	}
	t.counts[typ]++
}

// tallied waits for the watch to end and reports what came (where: on which subject, if said);
// none is a failure with hint.
func (d *doctor) tallied(ctx context.Context, t *eventTally, watch time.Duration, where, hint string) {
	select {
	case <-time.After(watch):
	case <-ctx.Done():
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	total, parts := 0, []string{}
	for _, typ := range slices.Sorted(maps.Keys(t.counts)) {
		total += t.counts[typ]
		parts = append(parts, fmt.Sprintf("%s %d", typ, t.counts[typ]))
	}
	if where != "" {
		where = " on " + where
	}
	if total == 0 {
		d.fail("events", model.Errorf(model.CodeTimeout, hint, "no event%s in %v", where, watch))
		return
	}
	d.pass("events", "%d%s in %v: %s", total, where, watch, strings.Join(parts, ", "))
}
