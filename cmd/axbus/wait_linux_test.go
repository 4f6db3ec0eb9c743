package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// waitFor arms a wait through NATS, makes the change through the fixture's own control socket
// once the wait listens, and returns the outcome.
func (dd *desktopDaemon) waitFor(t *testing.T, kind, expr string, change map[string]any) *api.WaitResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := api.WaitRequest{Expr: expr, AppTarget: api.AppTarget{PID: dd.apps[kind].PID}, TimeoutMS: 10000}
	r, err := dd.client.WaitAfter(ctx, req, func(context.Context) error {
		if change != nil {
			dd.do(t, kind, change)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	raw := mustJSON(t, r)
	testdaemon.MustMatch(t, "wait.reply", raw)
	return r
}

// listing decodes the snapshot a wait's reply lists.
func listing(t *testing.T, r *api.WaitResult) *model.Inspection {
	t.Helper()
	insp, err := r.Snapshot.Inspection()
	if err != nil || insp == nil {
		t.Fatalf("the reply's snapshot: %v", err)
	}
	return insp
}

// holdsMatch checks a met outcome whose snapshot lists the match under its id.
func holdsMatch(t *testing.T, what string, r *api.WaitResult, wantMatch bool) {
	t.Helper()
	if r.Outcome != api.WaitMet || r.Snapshot == nil {
		t.Fatalf("%s: %s (%+v)", what, r.Outcome, r.Error)
	}
	if !wantMatch {
		return
	}
	if r.Match == nil {
		t.Fatalf("%s: met without the matched element", what)
	}
	for _, e := range listing(t, r).Elements {
		if e.ID == r.Match.ID && e.Role == r.Match.Role && e.Name == r.Match.Name {
			return
		}
	}
	t.Fatalf("%s: the snapshot does not list the match %s", what, r.Match.ID)
}

func TestDesktopWaits(t *testing.T) {
	for _, kind := range []string{headless.KindGTK3, headless.KindGTK4} {
		t.Run(kind, func(t *testing.T) {
			dd := startDesktopDaemon(t, kind)
			r := dd.waitFor(t, kind, `text="Saved"`, map[string]any{"cmd": "press_save"})
			holdsMatch(t, "text after the delayed Save", r, true)
			if r.Trigger == nil || r.Trigger.Kind == "initial" {
				t.Fatalf("Saved was there before the press: %+v", r.Trigger)
			}
			r = dd.waitFor(t, kind, `dialog:title~"Saved"`, nil) // opened with the label
			holdsMatch(t, "dialog", r, false)
			if r.Window == nil || r.Window.Title != "Saved" {
				t.Fatalf("dialog window %+v", r.Window)
			}
			r = dd.waitFor(t, kind, `element:role=button,name="OK" gone`, map[string]any{"cmd": "close_dialog"})
			if r.Outcome != api.WaitMet {
				t.Fatalf("OK gone: %+v", r)
			}
			r = dd.waitFor(t, kind, `window_gone:title="Saved"`, nil)
			if r.Outcome != api.WaitMet {
				t.Fatalf("dialog window gone: %+v", r)
			}
			r = dd.waitFor(t, kind, `element:role=slider,name="Volume",value="60"`, map[string]any{"cmd": "set_value", "value": 60})
			holdsMatch(t, "value reached", r, true)
			r = dd.waitFor(t, kind, `focused:name="Volume"`, map[string]any{"cmd": "focus", "target": "Volume"})
			holdsMatch(t, "focus moved", r, true)
			r = dd.waitFor(t, kind, `element:role=checkbox,name="Remember me",state=checked`, map[string]any{"cmd": "toggle"})
			holdsMatch(t, "checkbox checked", r, true)
			r = dd.waitFor(t, kind, `element:role=checkbox,name="Remember me",state!=checked`, map[string]any{"cmd": "toggle"})
			holdsMatch(t, "checkbox unchecked", r, true)
		})
	}
}

// TestDesktopWaitPastTheBudget: row 350 of the 400-row list lies past the unscoped budget; the
// wait is met with a snapshot listed from the row's listing root, the scope named.
func TestDesktopWaitPastTheBudget(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3)
	r := dd.waitFor(t, headless.KindGTK3, `text="Row 350"`, nil)
	holdsMatch(t, "row 350", r, true)
	insp := listing(t, r)
	if insp.Scope == nil || insp.Elements[0].ID != insp.Scope.Element || len(insp.Elements) > 200 {
		t.Fatalf("scope %+v with %d elements", insp.Scope, len(insp.Elements))
	}
	// the ids are actionable: the snapshot is stored
	if _, err := dd.Observer.Store().Get(insp.SnapshotID); err != nil {
		t.Fatal(err)
	}
}

// TestDesktopWaitAppGoneAndTimeout: a killed app ends its wait with app_gone within 200 ms; a
// timeout comes at the deadline.
func TestDesktopWaitAppGoneAndTimeout(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3)
	app := dd.apps[headless.KindGTK3]
	var killed time.Time
	ctx := context.Background()
	r, err := dd.client.WaitAfter(ctx, api.WaitRequest{Expr: `text="never shown"`, AppTarget: api.AppTarget{PID: app.PID}, TimeoutMS: 10000},
		func(context.Context) error {
			killed = time.Now()
			return app.Kill()
		})
	if err != nil {
		t.Fatal(err)
	}
	if late := time.Since(killed); r.Outcome != api.WaitAppGone || late > 200*time.Millisecond {
		t.Fatalf("after a kill: %s in %v", r.Outcome, late)
	}
	dd2 := startDesktopDaemon(t, headless.KindGTK3)
	start := time.Now()
	r, err = dd2.client.Wait(ctx, api.WaitRequest{Expr: `text="never shown"`, AppTarget: api.AppTarget{PID: dd2.apps[headless.KindGTK3].PID}, TimeoutMS: 500})
	if err != nil {
		t.Fatal(err)
	}
	if late := time.Since(start) - 500*time.Millisecond; r.Outcome != api.WaitTimeout || late > 50*time.Millisecond+20*time.Millisecond {
		t.Fatalf("timeout: %s, %v past the deadline", r.Outcome, late) // the 20 ms: a round trip over TCP
	}
	// the CLI exits 0 only when met
	_, _, code := dd2.cli(t, "wait", `text="never shown"`, "--pid", fmt.Sprint(dd2.apps[headless.KindGTK3].PID), "--for", "200ms")
	if code != exitTimeout {
		t.Fatalf("axbus wait that timed out: exit %d", code)
	}
	out, errOut, code := dd2.cli(t, "wait", `element:role=button,name="Save"`, "--pid", fmt.Sprint(dd2.apps[headless.KindGTK3].PID))
	if code != 0 {
		t.Fatalf("axbus wait met: exit %d %s %s", code, out, errOut)
	}
}
