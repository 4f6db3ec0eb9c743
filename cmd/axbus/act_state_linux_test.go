package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
)

var bothKits = []string{headless.KindGTK3, headless.KindGTK4}

// actOn does action on the element of snapshot insp with this role and name, through NATS.
func (dd *desktopDaemon) actOn(t *testing.T, insp *model.Inspection, action string, role model.Role, name string, req api.ActionRequest) (*api.ActionReply, error) {
	t.Helper()
	el := find(insp, role, name)
	if el == nil {
		t.Fatalf("no %s %q in the snapshot", role, name)
	}
	return dd.actTarget(t, action, insp.SnapshotID+":"+el.ID, req)
}

// stateExpect is the expect that element id of the action's snapshot is (or is not) checked.
func stateExpect(id string, on bool) *api.WaitRequest {
	expr := "state:" + id + "=checked"
	if !on {
		expr = "state:" + id + "!=checked"
	}
	return &api.WaitRequest{Expr: expr, TimeoutMS: 10000}
}

// A toggle button is toggled, checked and unchecked, and each proof sees it: GTK 4.8 has no
// toggle-button role and signals the on state as pressed, GTK3 as checked. The app's own state
// is the witness.
func TestDesktopToggleButtons(t *testing.T) {
	dd := startDesktopDaemon(t, bothKits...)
	for _, kind := range bothKits {
		t.Run(kind, func(t *testing.T) {
			insp := dd.inspect(t, kind)
			role := model.RoleToggleButton
			if find(insp, role, "Bold") == nil {
				role = model.RoleButton // GTK 4.8
			}
			id := find(insp, role, "Bold").ID
			for _, step := range []struct {
				action string
				on     bool
			}{{"toggle", true}, {"uncheck", false}, {"check", true}, {"check", true}, {"toggle", false}} {
				r, err := dd.actOn(t, insp, step.action, role, "Bold", api.ActionRequest{Expect: stateExpect(id, step.on)})
				if err != nil {
					t.Fatalf("%s: %v %v", step.action, err, model.AsError(err).Details)
				}
				if r.Expect.Outcome != api.WaitMet || r.PostState == nil || r.PostState.States.Has(model.StateChecked) != step.on {
					t.Fatalf("%s: expect %s after %.0f ms, post state %+v, trace %+v", step.action, r.Expect.Outcome, r.Expect.ElapsedMS, r.PostState, r.Trace)
				}
				dd.eventually(t, kind, step.action+" shows in the app", func(s headless.State) bool { return s.Bold == step.on })
			}
		})
	}
}

// An action on an element of a page that is not shown, and its proof, never disagree: the
// Notify me checkbox leaves the tree when Page 2 shows (GTK3) or stays in it (GTK4). GTK3 says
// it does not show: the action is refused (ELEMENT_HIDDEN) and the app's box stays unchecked.
// GTK 4.8 reports showing nowhere below the window: whatever the action does, its post state,
// its expect and the app tell the same.
func TestDesktopHiddenTargetAndItsProofAgree(t *testing.T) {
	dd := startDesktopDaemon(t, bothKits...)
	for _, kind := range bothKits {
		t.Run(kind, func(t *testing.T) {
			insp := dd.inspect(t, kind)
			id := find(insp, model.RoleCheckbox, "Notify me").ID
			dd.do(t, kind, map[string]any{"cmd": "show_page", "page": 2})
			dd.eventually(t, kind, "page 2 shows", func(s headless.State) bool { return s.Page == 2 })
			r, err := dd.actOn(t, insp, "check", model.RoleCheckbox, "Notify me",
				api.ActionRequest{Policy: api.PolicyPhysical, Expect: stateExpect(id, true)})
			if kind == headless.KindGTK3 {
				if model.CodeOf(err) != model.CodeElementHidden || dd.state(t, kind).Notify {
					t.Fatalf("check on a page not shown: %+v %v; the app's box checked: %v", r, err, dd.state(t, kind).Notify)
				}
				dd.do(t, kind, map[string]any{"cmd": "show_page", "page": 1})
				return
			}
			if err != nil {
				t.Fatalf("check: %v", err)
			}
			truth := dd.state(t, kind).Notify
			posted := r.PostState != nil && r.PostState.States.Has(model.StateChecked)
			met := r.Expect.Outcome == api.WaitMet
			t.Logf("step %s, post state checked %v, expect %s, the app: %v", r.Step, posted, r.Expect.Outcome, truth)
			if posted != met || met != truth {
				t.Fatalf("they disagree: post state checked %v, expect %s, the app's checkbox %v", posted, r.Expect.Outcome, truth)
			}
			if met && (r.Expect.Snapshot == nil || r.Expect.Match == nil) {
				t.Fatalf("met without a snapshot that lists the match: %+v", r.Expect)
			}
			dd.do(t, kind, map[string]any{"cmd": "show_page", "page": 1})
		})
	}
}

// Clicking a dialog's button that closes it, with expect window_gone and no window named: the
// expect borrows the action's window, the dialog, and is met when it goes.
func TestDesktopDialogClosedWithWindowGone(t *testing.T) {
	dd := startDesktopDaemon(t, bothKits...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, kind := range bothKits {
		t.Run(kind, func(t *testing.T) {
			pid := dd.apps[kind].PID
			dd.do(t, kind, map[string]any{"cmd": "press_save"})
			dd.eventually(t, kind, "the dialog opens", func(s headless.State) bool { return s.DialogOpen })
			var dialog model.Window
			var listed []model.Window
			if !testkit.Within(5*time.Second, func() bool { // the app lists it a moment after it opens
				wins, err := dd.client.Windows(ctx, api.AppTarget{PID: pid})
				if err != nil {
					t.Fatal(err)
				}
				listed = wins.Windows
				i := slices.IndexFunc(listed, func(w model.Window) bool { return w.Title == "Saved" })
				if i >= 0 {
					dialog = listed[i]
				}
				return i >= 0
			}) {
				t.Fatalf("no dialog among %+v", listed)
			}
			insp, err := dd.client.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: pid}, Window: dialog.ID})
			if err != nil {
				t.Fatal(err)
			}
			r, err := dd.actOn(t, insp, "click", model.RoleButton, "OK",
				api.ActionRequest{Expect: &api.WaitRequest{Expr: "window_gone", TimeoutMS: 5000}})
			if err != nil {
				t.Fatalf("click OK with expect window_gone: %v", err)
			}
			if r.Expect.Outcome != api.WaitMet {
				t.Fatalf("expect %s: %+v", r.Expect.Outcome, r.Expect.Error)
			}
			if dd.state(t, kind).DialogOpen {
				t.Fatal("the expect was met, but the app says its dialog is open")
			}
		})
	}
}
