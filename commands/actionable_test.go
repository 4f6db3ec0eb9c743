package commands

import (
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/waiters"
)

// Every action that acts on an element refuses a disabled one at once, before any step, with
// the check a locator names; scroll_to still brings it into view.
func TestDisabledTargetIsRefusedAtOnce(t *testing.T) {
	r := newRig(t)
	target := r.target(t, "remember")
	if err := r.desk.SetEnabled(notes, "remember", false); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		action string
		req    api.ActionRequest
	}{
		{"click", api.ActionRequest{}}, {"press", api.ActionRequest{Action: "AXPress"}}, {"toggle", api.ActionRequest{}},
		{"check", api.ActionRequest{}}, {"uncheck", api.ActionRequest{}}, {"set_value", api.ActionRequest{Value: "1"}},
		{"type", api.ActionRequest{Text: "x"}}, {"select", api.ActionRequest{}}, {"expand", api.ActionRequest{}},
		{"collapse", api.ActionRequest{}}, {"focus", api.ActionRequest{}}, {"key", api.ActionRequest{Keys: "space"}},
	} {
		c.req.Target = target
		c.req.Expect = &api.WaitRequest{Expr: "state:e0=focused", TimeoutMS: 5000}
		start := time.Now()
		reply, err := r.do(t, c.action, c.req)
		if e := model.AsError(err); err == nil || e.Code != model.CodeElementDisabled || e.Details["check"] != waiters.CheckDisabled ||
			time.Since(start) > time.Second {
			t.Errorf("%s on a disabled check box: %+v %v after %v", c.action, reply, err, time.Since(start))
		}
	}
	if r.peek(t, "remember").States.Has(model.StateChecked) {
		t.Fatal("the disabled check box was checked")
	}

	row := r.target(t, "row-3")
	if err := r.desk.SetEnabled(notes, "row-3", false); err != nil {
		t.Fatal(err)
	}
	if reply, err := r.do(t, "scroll_to", api.ActionRequest{Target: row}); err != nil || !reply.Done {
		t.Fatalf("scroll_to a disabled row: %+v %v", reply, err)
	}
}

// A window hidden, not destroyed (its elements still answer), takes no action on its elements:
// ELEMENT_HIDDEN, at once; shown again, it does.
func TestTargetInHiddenWindowIsRefused(t *testing.T) {
	r := newRig(t)
	send := r.openCompose(t)
	if err := r.desk.SetHidden(mail, "compose-window", true); err != nil {
		t.Fatal(err)
	}
	reply, err := r.do(t, "click", api.ActionRequest{Target: send})
	if e := model.AsError(err); err == nil || e.Code != model.CodeElementHidden || e.Details["check"] != checkHidden {
		t.Fatalf("click Send in a hidden window: %+v %v", reply, err)
	}
	if err := r.desk.SetHidden(mail, "compose-window", false); err != nil {
		t.Fatal(err)
	}
	reply, err = r.do(t, "click", api.ActionRequest{Target: send, Expect: &api.WaitRequest{Expr: "window_gone", TimeoutMS: 5000}})
	if err != nil || !reply.Done || reply.Expect.Outcome != api.WaitMet {
		t.Fatalf("click Send once shown again: %+v %v", reply, err)
	}
}
