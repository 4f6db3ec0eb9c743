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
	"github.com/axbus/axbus/internal/testkit"
)

// act does an action through NATS on the element of a fresh inspection with this role and
// name, and checks the reply against its schema.
func (dd *desktopDaemon) act(t *testing.T, kind, action string, role model.Role, name string, req api.ActionRequest) (*api.ActionReply, error) {
	t.Helper()
	insp := dd.inspect(t, kind)
	el := find(insp, role, name)
	if el == nil {
		t.Fatalf("%s: no %s %q to %s", kind, role, name, action)
	}
	return dd.actTarget(t, action, insp.SnapshotID+":"+el.ID, req)
}

// actTarget does an action through NATS on target (SNAPSHOT:ELEMENT) and checks the reply against
// its schema.
func (dd *desktopDaemon) actTarget(t *testing.T, action, target string, req api.ActionRequest) (*api.ActionReply, error) {
	t.Helper()
	req.Target = target
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := dd.client.Act(ctx, action, req)
	if err == nil {
		testdaemon.MustMatch(t, action+".reply", mustJSON(t, r))
	}
	return r, err
}

func (dd *desktopDaemon) mustAct(t *testing.T, kind, action string, role model.Role, name string, req api.ActionRequest) *api.ActionReply {
	t.Helper()
	r, err := dd.act(t, kind, action, role, name, req)
	if err != nil {
		t.Fatalf("%s %s %q: %v %v", action, role, name, err, model.AsError(err).Details)
	}
	if !r.Done || !r.Delivered || r.Target == nil || r.Target.Name != name {
		t.Fatalf("%s %s %q: %+v", action, role, name, r)
	}
	return r
}

// state is the fixture app's own account of itself: the independent witness of an action.
func (dd *desktopDaemon) state(t *testing.T, kind string) headless.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := dd.apps[kind].State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// eventually polls the fixture's state until ok holds (a toolkit applies some changes a moment
// after the call returns).
func (dd *desktopDaemon) eventually(t *testing.T, kind, what string, ok func(headless.State) bool) headless.State {
	t.Helper()
	var s headless.State
	if !testkit.Within(3*time.Second, func() bool { s = dd.state(t, kind); return ok(s) }) {
		t.Fatalf("%s: %s; the app says %+v", kind, what, s)
	}
	return s
}

// TestDesktopActionsGTK3 does every kind of action on the GTK3 fixture through NATS and checks
// each effect in the app's own state, never in the action's reply alone.
func TestDesktopActionsGTK3(t *testing.T) {
	const kind = headless.KindGTK3
	dd := startDesktopDaemon(t, kind)

	t.Run("click with expect", func(t *testing.T) {
		before := dd.state(t, kind).Saves
		r := dd.mustAct(t, kind, "click", model.RoleButton, "Save",
			api.ActionRequest{Expect: &api.WaitRequest{Expr: `text="Saved"`, TimeoutMS: 5000}})
		holdsMatch(t, "expect of click", r.Expect, true)
		if r.Mechanism != "accessibility" || r.Trace[len(r.Trace)-1].Result != "ok" {
			t.Fatalf("click went by %q: %+v", r.Mechanism, r.Trace)
		}
		dd.eventually(t, kind, "no save was done", func(s headless.State) bool { return s.Saves == before+1 })
	})

	t.Run("expect a dialog", func(t *testing.T) {
		dd.do(t, kind, map[string]any{"cmd": "close_dialog"})
		r := dd.mustAct(t, kind, "click", model.RoleButton, "Save",
			api.ActionRequest{Expect: &api.WaitRequest{Expr: `dialog:title~"Saved"`, TimeoutMS: 5000}})
		if r.Expect.Outcome != api.WaitMet || r.Expect.Window == nil || r.Expect.Window.Title != "Saved" {
			t.Fatalf("dialog expect: %+v", r.Expect)
		}
		dd.eventually(t, kind, "the dialog is not open", func(s headless.State) bool { return s.DialogOpen })
		dd.do(t, kind, map[string]any{"cmd": "close_dialog"})
	})

	t.Run("set_value on an entry", func(t *testing.T) {
		r := dd.mustAct(t, kind, "set_value", model.RoleTextField, "Name", api.ActionRequest{Value: "Ada Lovelace"})
		if r.PostState == nil || r.PostState.Value == nil || *r.PostState.Value != "Ada Lovelace" {
			t.Fatalf("post state %+v", r.PostState)
		}
		dd.eventually(t, kind, "the Name entry does not hold the value", func(s headless.State) bool { return s.Name == "Ada Lovelace" })
	})

	t.Run("type non-ASCII", func(t *testing.T) {
		dd.mustAct(t, kind, "set_value", model.RoleTextField, "Name", api.ActionRequest{Value: "Ada"})
		dd.mustAct(t, kind, "type", model.RoleTextField, "Name", api.ActionRequest{Text: " héllo wörld ✓"})
		dd.eventually(t, kind, "the typed text is not appended", func(s headless.State) bool { return s.Name == "Ada héllo wörld ✓" })
	})

	t.Run("set_value on a slider", func(t *testing.T) {
		dd.mustAct(t, kind, "set_value", model.RoleSlider, "Volume", api.ActionRequest{Value: "70"})
		dd.eventually(t, kind, "the slider did not move", func(s headless.State) bool { return s.Volume == 70 })
	})

	t.Run("password", func(t *testing.T) {
		const secret = "hunter2-secret"
		r := dd.mustAct(t, kind, "set_value", model.RolePassword, "Password", api.ActionRequest{Value: secret})
		if r.PostState != nil && r.PostState.Value != nil {
			t.Fatalf("the reply carries the password field's value: %q", *r.PostState.Value)
		}
		if strings.Contains(string(mustJSON(t, r)), secret) {
			t.Fatal("the reply carries the password")
		}
		dd.eventually(t, kind, "the password was not set", func(s headless.State) bool { return s.PasswordLen == len(secret) })
		if strings.Contains(dd.log.String(), secret) {
			t.Fatal("the daemon logged the password")
		}
	})

	t.Run("toggle exactly once", func(t *testing.T) {
		was := dd.state(t, kind).Remember
		r := dd.mustAct(t, kind, "toggle", model.RoleCheckbox, "Remember me", api.ActionRequest{})
		dd.eventually(t, kind, "toggle did not flip the box", func(s headless.State) bool { return s.Remember != was })
		if r.PostState == nil || r.PostState.States.Has(model.StateChecked) == was {
			t.Fatalf("post state %+v", r.PostState)
		}
		dd.mustAct(t, kind, "toggle", model.RoleCheckbox, "Remember me", api.ActionRequest{})
		dd.eventually(t, kind, "the second toggle did not flip it back", func(s headless.State) bool { return s.Remember == was })
	})

	t.Run("check is idempotent", func(t *testing.T) {
		dd.mustAct(t, kind, "check", model.RoleCheckbox, "Remember me", api.ActionRequest{})
		dd.eventually(t, kind, "check left the box unchecked", func(s headless.State) bool { return s.Remember })
		r, err := dd.act(t, kind, "check", model.RoleCheckbox, "Remember me", api.ActionRequest{})
		if err != nil || !r.Done || r.Delivered || r.Step != "already checked" || len(r.Trace) != 0 {
			t.Fatalf("check of a checked box acted: %+v", r)
		}
		if !dd.state(t, kind).Remember {
			t.Fatal("the second check unchecked the box")
		}
		dd.mustAct(t, kind, "uncheck", model.RoleCheckbox, "Remember me", api.ActionRequest{})
		dd.eventually(t, kind, "uncheck left the box checked", func(s headless.State) bool { return !s.Remember })
	})

	t.Run("an expect's state is its target's", func(t *testing.T) {
		pid := fmt.Sprint(dd.apps[kind].PID)
		for _, step := range []struct {
			action, expect string
			checked        bool
		}{{"check", "state:checked", true}, {"uncheck", "state!=checked", false}} {
			out, errOut, code := dd.cli(t, step.action, `role=checkbox,name="Remember me"`, "--pid", pid, "--expect", step.expect, "--json")
			if r := testdaemon.Decode[api.ActionReply](t, out); code != 0 || r.Expect == nil || r.Expect.Outcome != api.WaitMet ||
				r.Target == nil || !strings.HasPrefix(r.Expect.Condition, "state:"+r.Target.Element) {
				t.Fatalf("%s --expect %s: exit %d\n%s%s", step.action, step.expect, code, out, errOut)
			}
			if dd.state(t, kind).Remember != step.checked { // the app's own word, as the expect was met
				t.Fatalf("%s --expect %s was met, but the app says the box is checked: %v", step.action, step.expect, !step.checked)
			}
		}
	})

	t.Run("select a row", func(t *testing.T) {
		// The row's name is its label's: select the label, and the chain selects its row.
		dd.mustAct(t, kind, "select", model.RoleLabel, "Row 3", api.ActionRequest{})
		dd.eventually(t, kind, "row 3 is not selected", func(s headless.State) bool { return s.SelectedRow == 3 })
	})

	t.Run("focus", func(t *testing.T) {
		dd.mustAct(t, kind, "focus", model.RoleSlider, "Volume", api.ActionRequest{})
		dd.eventually(t, kind, "Volume has not the focus", func(s headless.State) bool { return s.Focus == "Volume" })
	})

	t.Run("key needs the physical policy", func(t *testing.T) {
		dd.mustAct(t, kind, "set_value", model.RoleTextField, "Name", api.ActionRequest{Value: "to be cleared"})
		dd.mustAct(t, kind, "focus", model.RoleTextField, "Name", api.ActionRequest{})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		app := api.AppTarget{PID: dd.apps[kind].PID}
		_, err := dd.client.Act(ctx, "key", api.ActionRequest{AppTarget: app, Keys: "ctrl+a BackSpace"})
		if e := model.AsError(err); e == nil || !strings.Contains(e.Suggestion, "physical") {
			t.Fatalf("key without the policy: %v", err)
		}
		if dd.state(t, kind).Name != "to be cleared" {
			t.Fatal("a refused key changed the text")
		}
		r, err := dd.client.Act(ctx, "key", api.ActionRequest{AppTarget: app, Keys: "ctrl+a BackSpace", Policy: api.PolicyPhysical})
		if err != nil || r.Mechanism != "physical" {
			t.Fatalf("key: %+v %v", r, err)
		}
		dd.eventually(t, kind, "ctrl+a BackSpace left text", func(s headless.State) bool { return s.Name == "" })
	})

	t.Run("scroll_to", func(t *testing.T) {
		// GTK implements no ScrollTo: an element in view is done, one out of view is refused.
		dd.mustAct(t, kind, "scroll_to", model.RoleLabel, "Row 3", api.ActionRequest{})
		insp, err := dd.client.Inspect(context.Background(), api.InspectRequest{AppTarget: api.AppTarget{PID: dd.apps[kind].PID}})
		if err != nil {
			t.Fatal(err)
		}
		rows := find(insp, model.RoleList, "Rows")
		scoped, err := dd.client.Inspect(context.Background(), api.InspectRequest{Scope: insp.SnapshotID + ":" + rows.ID})
		if err != nil {
			t.Fatal(err)
		}
		far := find(scoped, model.RoleLabel, "Row 300")
		if far == nil {
			t.Fatal("no Row 300 in the list's scoped inspection")
		}
		_, err = dd.client.Act(context.Background(), "scroll_to", api.ActionRequest{Target: scoped.SnapshotID + ":" + far.ID})
		if e := model.AsError(err); e == nil || e.Code != model.CodeActionFailed || e.Suggestion == "" {
			t.Fatalf("scroll_to a row out of view: %v", err)
		}
	})

	t.Run("an expect that is not met", func(t *testing.T) {
		r := dd.mustAct(t, kind, "set_value", model.RoleTextField, "Name", api.ActionRequest{Value: "Grace",
			Expect: &api.WaitRequest{Expr: `text="never shown"`, TimeoutMS: 300}})
		if r.Expect == nil || r.Expect.Outcome != api.WaitTimeout {
			t.Fatalf("expect %+v", r.Expect)
		}
	})

	t.Run("the CLI", func(t *testing.T) {
		insp := dd.inspect(t, kind)
		save := find(insp, model.RoleButton, "Save")
		dd.do(t, kind, map[string]any{"cmd": "close_dialog"})
		out, errOut, code := dd.cli(t, "click", insp.SnapshotID+":"+save.ID, "--expect", `dialog:title~"Saved"`)
		if r := testdaemon.Decode[api.ActionReply](t, out); code != 0 || !r.Done || r.Expect == nil || r.Expect.Outcome != api.WaitMet {
			t.Fatalf("axbus click: exit %d\n%s\n%s", code, out, errOut)
		}
		_, errOut, code = dd.cli(t, "click", insp.SnapshotID+":e99999")
		if code == 0 || !strings.Contains(errOut, "NOT_FOUND") {
			t.Fatalf("click on a missing element: exit %d\n%s", code, errOut)
		}
	})
}

// TestDesktopActionsGTK4: a GTK4 check box has no accessible action, so toggle needs physical
// input, which only the physical policy allows.
func TestDesktopActionsGTK4(t *testing.T) {
	const kind = headless.KindGTK4
	dd := startDesktopDaemon(t, kind)

	before := dd.state(t, kind).Saves
	r := dd.mustAct(t, kind, "click", model.RoleButton, "Save",
		api.ActionRequest{Expect: &api.WaitRequest{Expr: `text="Saved"`, TimeoutMS: 5000}})
	holdsMatch(t, "expect of click", r.Expect, true)
	dd.eventually(t, kind, "no save was done", func(s headless.State) bool { return s.Saves == before+1 })
	dd.do(t, kind, map[string]any{"cmd": "close_dialog"}) // it would take the pointer click below

	dd.mustAct(t, kind, "set_value", model.RoleTextField, "Name", api.ActionRequest{Value: "Ada"})
	dd.mustAct(t, kind, "type", model.RoleTextField, "Name", api.ActionRequest{Text: " héllo wörld ✓"})
	dd.eventually(t, kind, "the typed text is not appended", func(s headless.State) bool { return s.Name == "Ada héllo wörld ✓" })

	was := dd.state(t, kind).Remember
	_, err := dd.act(t, kind, "toggle", model.RoleCheckbox, "Remember me", api.ActionRequest{})
	if e := model.AsError(err); err == nil || e.Code != model.CodeActionFailed || !strings.Contains(e.Suggestion, "physical") {
		t.Fatalf("toggle without physical input: %v", err)
	}
	if dd.state(t, kind).Remember != was {
		t.Fatal("the headless toggle changed the box")
	}
	r = dd.mustAct(t, kind, "toggle", model.RoleCheckbox, "Remember me", api.ActionRequest{Policy: api.PolicyPhysical})
	if r.Mechanism != "physical" {
		t.Fatalf("toggle went by %q", r.Mechanism)
	}
	dd.eventually(t, kind, "the physical toggle did not flip the box", func(s headless.State) bool { return s.Remember != was })
}
