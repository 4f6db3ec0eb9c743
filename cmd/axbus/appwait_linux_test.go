package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// cliRun is what one command line printed and its exit status.
type cliRun struct {
	out, errOut string
	code        int
}

// cliAsync runs a command line against the daemon in the background.
func (dd *desktopDaemon) cliAsync(t *testing.T, args ...string) <-chan cliRun {
	done := make(chan cliRun, 1)
	go func() {
		out, errOut, code := dd.cli(t, args...)
		done <- cliRun{out, errOut, code}
	}()
	return done
}

// awaiting waits until n waits of the daemon wait for their app to start.
func (dd *desktopDaemon) awaiting(ctx context.Context, n int) error {
	for dd.Waits.Awaiting() < n {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d waits wait for their app, want %d", dd.Waits.Awaiting(), n)
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

// TestAppWait: on a headless desktop where no fixture runs, a wait and a locator click that name
// the GTK3 fixture by name are under way before it starts, and done once it does: the wait met,
// the button clicked (the app counts it) and the click's expect met. A name that never appears
// times out at the deadline saying so; a pid, and the one-shot requests, fail at once.
func TestAppWait(t *testing.T) {
	dd := startDaemonWith(t, func(context.Context, *desktopDaemon) []int { return nil })
	kind := headless.KindGTK3
	name := headless.AppName(kind)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	start := time.Now()
	if _, err := dd.client.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{App: name}}); model.CodeOf(err) != model.CodeAppNotFound {
		t.Fatalf("inspect before the app runs: %v, want APP_NOT_FOUND", err)
	}
	if _, err := dd.client.Wait(ctx, api.WaitRequest{Expr: `text:"x"`, AppTarget: api.AppTarget{PID: 4242}, TimeoutMS: 10000}); model.CodeOf(err) != model.CodeAppNotFound {
		t.Fatalf("a wait on a pid that does not run: %v, want APP_NOT_FOUND", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("refused after %v: not at once", took)
	}

	waited := dd.cliAsync(t, "wait", "element:role=button,name=Save", "--app", name, "--for", "20s")
	clicked := dd.cliAsync(t, "click", "role=button,name=Save", "--app", name, "--timeout", "20s", "--expect", `text:"Saved"`)
	r, err := dd.client.WaitAfter(ctx, api.WaitRequest{Expr: `element:role=button,name="Save"`, AppTarget: api.AppTarget{App: name}, TimeoutMS: 20000},
		func(ctx context.Context) error {
			if err := dd.awaiting(ctx, 3); err != nil { // the CLI's wait, its click's and this one: all before the app
				return err
			}
			app, err := dd.session.StartApp(ctx, kind)
			dd.apps[kind] = app
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	testdaemon.MustMatch(t, "wait.reply", mustJSON(t, r))
	holdsMatch(t, "Save once the app runs", r, true)
	if pid := dd.apps[kind].PID; r.App == nil || r.App.PID != pid || r.App.Name != name {
		t.Fatalf("met on %+v, want %s pid %d", r.App, name, pid)
	}

	w := <-waited
	if w.code != 0 {
		t.Fatalf("axbus wait: exit %d\n%s%s", w.code, w.out, w.errOut)
	}
	if res := testdaemon.Decode[api.WaitResult](t, w.out); res.Outcome != api.WaitMet || res.App == nil || res.App.PID != dd.apps[kind].PID {
		t.Fatalf("axbus wait: %s", w.out)
	}
	c := <-clicked
	if c.code != 0 {
		t.Fatalf("axbus click: exit %d\n%s%s", c.code, c.out, c.errOut)
	}
	testdaemon.MustMatch(t, "click.reply", []byte(c.out))
	if reply := testdaemon.Decode[api.ActionReply](t, c.out); reply.Target == nil || reply.Target.Name != "Save" || reply.Expect == nil || reply.Expect.Outcome != api.WaitMet {
		t.Fatalf("axbus click: %s", c.out)
	}
	dd.eventually(t, kind, "the app counts the click", func(s headless.State) bool { return s.Saves == 1 })

	// A name that never appears: a timeout at the deadline, saying so.
	start = time.Now()
	r, err = dd.client.Wait(ctx, api.WaitRequest{Expr: `element:role=button,name="Save"`, AppTarget: api.AppTarget{App: "axbus-never-started"}, TimeoutMS: 1000})
	late := time.Since(start) - time.Second
	if err != nil || r.Outcome != api.WaitTimeout || late < 0 || late > time.Second {
		t.Fatalf("a name that never appears: %+v, %v, %v past the deadline", r, err, late)
	}
	testdaemon.MustMatch(t, "wait.reply", mustJSON(t, r))
	if e := r.Error; e == nil || e.Code != model.CodeAppNotFound || !strings.Contains(e.Message, `"axbus-never-started" appeared`) || e.Suggestion == "" {
		t.Fatalf("its error: %+v", r.Error)
	}
	out, errOut, code := dd.cli(t, "click", "role=button,name=Save", "--app", "axbus-never-started", "--timeout", "300ms")
	if e := testdaemon.Decode[api.ErrorBody](t, out).Error; code != exitNotFound || e.Code != model.CodeAppNotFound || e.Details["locator"] == nil {
		t.Fatalf("a click in an app that never appears: exit %d\n%s%s", code, out, errOut)
	}
}
