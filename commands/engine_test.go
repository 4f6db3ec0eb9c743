package commands

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/waiters"
	"go.uber.org/goleak"
)

const notes = 501

// rig is an action engine on the simulated demo desktop (macOS-shaped, macOS chains).
type rig struct {
	o    *observer.Observer
	desk *sim.Desktop
	e    *Engine
}

func newRig(t *testing.T, opts ...Option) *rig {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	desk, err := sim.Fixture("demo")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = desk.Close() })
	o := observer.New(desk)
	w := waiters.New(o)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return &rig{o: o, desk: desk, e: New(o, w, opts...)}
}

// target inspects Notes and returns SNAPSHOT:ELEMENT of the element the sim calls id.
func (r *rig) target(t *testing.T, id string) string {
	t.Helper()
	return r.targetIn(t, notes, "", id)
}

func (r *rig) do(t *testing.T, action string, req api.ActionRequest) (*api.ActionReply, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return r.e.Do(ctx, action, req)
}

func (r *rig) peek(t *testing.T, id string) model.Node {
	t.Helper()
	n, ok := r.desk.Peek(notes, id)
	if !ok {
		t.Fatalf("no %s", id)
	}
	return n
}

func expectText(s string, ms int) *api.WaitRequest {
	return &api.WaitRequest{Expr: `text="` + s + `"`, TimeoutMS: ms}
}

func TestClickWithExpectIsMetWithASnapshot(t *testing.T) {
	r := newRig(t)
	reply, err := r.do(t, "click", api.ActionRequest{Target: r.target(t, "save"), Expect: expectText("Saved", 5000)})
	if err != nil {
		t.Fatal(err)
	}
	if !reply.Done || reply.Mechanism != "accessibility" || reply.Expect == nil || reply.Expect.Outcome != api.WaitMet ||
		reply.Expect.Snapshot == nil || reply.Expect.Match == nil {
		t.Fatalf("reply %+v expect %+v", reply, reply.Expect)
	}
	if len(r.desk.Inputs()) != 0 {
		t.Fatal("physical input was sent without policy physical")
	}
}

func TestToggleExactlyOnceDespiteATransientError(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault sim.Fault
	}{
		{"a busy app that did nothing", sim.Fault{Kind: sim.FaultTransient, Element: "remember", Action: "AXPress", Count: 1}},
		{"a busy app that did it anyway", sim.Fault{Kind: sim.FaultLying, Element: "remember", Action: "AXPress", Count: 1, Code: model.CodeTransient}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t)
			if err := r.desk.InjectFault(notes, c.fault); err != nil {
				t.Fatal(err)
			}
			before := r.peek(t, "remember").States.Has(model.StateChecked)
			reply, err := r.do(t, "toggle", api.ActionRequest{Target: r.target(t, "remember")})
			if err != nil {
				t.Fatal(err)
			}
			after := r.peek(t, "remember").States.Has(model.StateChecked)
			if after == before || !reply.Done || !reply.Trace[0].Retried {
				t.Fatalf("checked %v -> %v, reply %+v", before, after, reply)
			}
		})
	}
}

func TestALyingActionIsJudgedByItsExpect(t *testing.T) {
	r := newRig(t)
	if err := r.desk.InjectFault(notes, sim.Fault{Kind: sim.FaultLying, Element: "save", Action: "AXPress", Code: model.CodeActionFailed}); err != nil {
		t.Fatal(err)
	}
	reply, err := r.do(t, "click", api.ActionRequest{Target: r.target(t, "save"), Expect: expectText("Saved", 5000)})
	if err != nil {
		t.Fatal(err)
	}
	if reply.Expect.Outcome != api.WaitMet || reply.Trace[0].Result != string(model.CodeActionFailed) {
		t.Fatalf("reply %+v", reply)
	}
}

func TestANoOpActionGivesExpectTimeoutWithTheTrace(t *testing.T) {
	r := newRig(t)
	if err := r.desk.InjectFault(notes, sim.Fault{Kind: sim.FaultNoop, Element: "save", Action: "AXPress"}); err != nil {
		t.Fatal(err)
	}
	reply, err := r.do(t, "click", api.ActionRequest{Target: r.target(t, "save"), Expect: expectText("Saved", 500)})
	if err != nil {
		t.Fatal(err)
	}
	if !reply.Done || reply.Expect.Outcome != api.WaitTimeout || len(reply.Trace) == 0 || reply.Trace[len(reply.Trace)-1].Result != "ok" {
		t.Fatalf("reply %+v", reply)
	}
}

func TestAChainPastItsDeadlineStops(t *testing.T) {
	r := newRig(t, WithChainDeadline(300*time.Millisecond))
	tgt := r.target(t, "save")
	// Every step fails, each after 200 ms: the chain would take seconds.
	for _, f := range []sim.Fault{{Kind: sim.FaultSlow, LatencyMS: 200}, {Kind: sim.FaultLying, Element: "save", Code: model.CodeActionFailed}} {
		if err := r.desk.InjectFault(notes, f); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	_, err := r.do(t, "click", api.ActionRequest{Target: tgt})
	if model.CodeOf(err) != model.CodeTimeout || model.AsError(err).Suggestion == "" || time.Since(start) > 3*time.Second {
		t.Fatalf("after %v: %v", time.Since(start), err)
	}
}

func TestPhysicalInputOnlyWithThePolicy(t *testing.T) {
	r := newRig(t)
	tgt := r.target(t, "save")
	// Every accessibility way fails: only the physical step is left.
	if err := r.desk.InjectFault(notes, sim.Fault{Kind: sim.FaultLying, Element: "save", Code: model.CodeActionFailed}); err != nil {
		t.Fatal(err)
	}
	_, err := r.do(t, "click", api.ActionRequest{Target: tgt})
	if model.CodeOf(err) != model.CodeActionFailed || len(r.desk.Inputs()) != 0 {
		t.Fatalf("headless: %v with %d inputs", err, len(r.desk.Inputs()))
	}
	reply, err := r.do(t, "click", api.ActionRequest{Target: tgt, Policy: api.PolicyPhysical})
	if err != nil || reply.Mechanism != "physical" || len(r.desk.Inputs()) != 1 || r.desk.Inputs()[0].Kind != observer.InputClick {
		t.Fatalf("physical: %+v %v, inputs %+v", reply, err, r.desk.Inputs())
	}
}

func TestTargetResolution(t *testing.T) {
	t.Run("moved 30 px: recovered", func(t *testing.T) {
		r := newRig(t)
		tgt := r.target(t, "save")
		if err := r.desk.Move(notes, "save", 30, 0); err != nil {
			t.Fatal(err)
		}
		reply, err := r.do(t, "click", api.ActionRequest{Target: tgt})
		if err != nil || !reply.Target.Recovered || reply.Target.MovedBy != 30 {
			t.Fatalf("%+v %v", reply, err)
		}
	})
	// Two like it, restarted and expired: see TestEveryErrorHasASuggestion.
}

// TestEveryErrorHasASuggestion walks every error code: each an action can end with is made to
// happen and must carry a suggestion; the others say why an action cannot give them, so that a
// new code fails here until it is placed.
func TestEveryErrorHasASuggestion(t *testing.T) {
	notFromActions := map[model.Code]string{
		model.CodePayloadTooLarge:  "the service's edge refuses it before any handler (package bus tests it)",
		model.CodeAppAmbiguous:     "key names its app by pid or by a name, and the sim's names are unique (package observer tests it)",
		model.CodeWindowNotFound:   "an action's window comes from its snapshot; a closed one is STALE_REF",
		model.CodeScopeMoved:       "scopes belong to inspect and read; an action re-finds its element instead",
		model.CodeScopeChanged:     "scopes belong to inspect and read",
		model.CodeScopeAmbiguous:   "scopes belong to inspect and read; an action says AMBIGUOUS_TARGET",
		model.CodeScopeGeneration:  "scopes belong to inspect and read; an action says STALE_REF",
		model.CodeAppGone:          "an app gone before the action is STALE_REF; one gone during it ends the chain's steps (traced)",
		model.CodePermissionDenied: "only macOS refuses accessibility to an untrusted process",
		model.CodeTransient:        "a transient step error is retried, then traced; the action ends ACTION_FAILED",
		model.CodeUnavailable:      "the backend is up for as long as the daemon serves",
		model.CodeBusy:             "the service's edge refuses it, per identity, before any handler",
		model.CodeLeaseHeld:        "this table acts as the daemon, whom no lease stops (lease_test.go makes it, for other identities)",
		model.CodeAlreadyRunning:   "a daemon's start-up error (embedded), never a request's",
		model.CodeAddressInUse:     "a daemon's start-up error (embedded), never a request's",
		model.CodeInternal:         "a bug, never a path",
	}
	cases := []struct {
		want   model.Code
		action string
		setup  func(r *rig, tgt string) api.ActionRequest
		opts   []Option
	}{
		{model.CodeBadRequest, "click", func(*rig, string) api.ActionRequest { return api.ActionRequest{} }, nil}, // no target
		{model.CodeBadRequest, "click", func(*rig, string) api.ActionRequest { return api.ActionRequest{Target: "nonsense"} }, nil},
		{model.CodeBadRequest, "click", func(_ *rig, tgt string) api.ActionRequest { return api.ActionRequest{Target: tgt, Policy: "loud"} }, nil},
		{model.CodeBadRequest, "click", func(_ *rig, tgt string) api.ActionRequest {
			return api.ActionRequest{Target: tgt, Expect: &api.WaitRequest{Expr: "text:"}} // expect: parse
		}, nil},
		{model.CodeConditionTooCostly, "click", func(_ *rig, tgt string) api.ActionRequest {
			return api.ActionRequest{Target: tgt, Expect: &api.WaitRequest{Expr: "text:/[S-U]{999}a!/"}} // expect: its regex's cost
		}, nil},
		{model.CodeBadRequest, "key", func(*rig, string) api.ActionRequest {
			return api.ActionRequest{Keys: "ctrl+s", AppTarget: api.AppTarget{PID: notes}, Expect: expectText("x", 100)} // expect: pid
		}, nil},
		{model.CodeSnapshotExpired, "click", func(*rig, string) api.ActionRequest { return api.ActionRequest{Target: "s_0abc:e1"} }, nil},
		{model.CodeElementNotFound, "click", func(_ *rig, tgt string) api.ActionRequest { return api.ActionRequest{Target: tgt + "0000"} }, nil},
		{model.CodeStaleRef, "click", func(r *rig, tgt string) api.ActionRequest {
			_ = r.desk.Relaunch(notes)
			return api.ActionRequest{Target: tgt}
		}, nil},
		{model.CodeAmbiguousTarget, "click", func(r *rig, tgt string) api.ActionRequest {
			_ = r.desk.RemoveNode(notes, "save")
			for i, x := range []float64{115, 120} {
				_ = r.desk.AddNode(notes, "toolbar", sim.NodeSpec{ID: "twin" + string(rune('a'+i)), Role: "AXButton", Title: "Save",
					Frame: []float64{x, 84, 64, 28}})
			}
			return api.ActionRequest{Target: tgt}
		}, nil},
		{model.CodeElementHidden, "click", func(r *rig, tgt string) api.ActionRequest {
			_ = r.desk.SetHidden(notes, "main", true)
			return api.ActionRequest{Target: tgt}
		}, nil},
		{model.CodeElementDisabled, "click", func(r *rig, tgt string) api.ActionRequest {
			_ = r.desk.SetEnabled(notes, "save", false)
			return api.ActionRequest{Target: tgt}
		}, nil},
		{model.CodeNotSupported, "dance", func(_ *rig, tgt string) api.ActionRequest { return api.ActionRequest{Target: tgt} }, nil},
		{model.CodeAppNotFound, "key", func(*rig, string) api.ActionRequest {
			return api.ActionRequest{Keys: "ctrl+s", AppTarget: api.AppTarget{App: "nope"}}
		}, nil},
		{model.CodeActionFailed, "key", func(*rig, string) api.ActionRequest { // key needs physical input
			return api.ActionRequest{Keys: "ctrl+s", AppTarget: api.AppTarget{PID: notes}}
		}, nil},
		{model.CodeTimeout, "click", func(r *rig, tgt string) api.ActionRequest {
			_ = r.desk.InjectFault(notes, sim.Fault{Kind: sim.FaultSlow, LatencyMS: 200})
			_ = r.desk.InjectFault(notes, sim.Fault{Kind: sim.FaultLying, Element: "save", Code: model.CodeActionFailed})
			return api.ActionRequest{Target: tgt}
		}, []Option{WithChainDeadline(300 * time.Millisecond)}},
		{model.CodeAppNotResponding, "click", func(r *rig, tgt string) api.ActionRequest {
			_ = r.desk.InjectFault(notes, sim.Fault{Kind: sim.FaultHang})
			return api.ActionRequest{Target: tgt}
		}, []Option{WithChainDeadline(300 * time.Millisecond)}},
	}
	seen := map[model.Code]bool{}
	for _, c := range cases {
		r := newRig(t, c.opts...)
		req := c.setup(r, r.target(t, "save"))
		_, err := r.do(t, c.action, req)
		e := model.AsError(err)
		if e == nil || e.Code != c.want || e.Suggestion == "" {
			t.Errorf("%s %+v: got %v, want %s with a suggestion", c.action, req, err, c.want)
			continue
		}
		seen[e.Code] = true
		if _, dup := notFromActions[e.Code]; dup {
			t.Errorf("%s is listed as not from actions", e.Code)
		}
		_ = r.desk.ClearFaults(notes)
	}
	for _, code := range model.Codes {
		if _, ok := notFromActions[code]; !ok && !seen[code] {
			t.Errorf("no test makes an action end with %s, and no reason says it cannot", code)
		}
	}
}

// The two ways an expect is refused begin with "expect: ".
func TestExpectRefusals(t *testing.T) {
	r := newRig(t)
	_, err := r.do(t, "key", api.ActionRequest{Keys: "ctrl+s", AppTarget: api.AppTarget{PID: notes}, Expect: expectText("x", 100)})
	if e := model.AsError(err); e == nil || e.Message != "expect: pid must be given" {
		t.Fatalf("key with an element expect: %v", err)
	}
	_, err = r.do(t, "click", api.ActionRequest{Target: r.target(t, "save"), Expect: &api.WaitRequest{Expr: "text:"}})
	if e := model.AsError(err); e == nil || !strings.HasPrefix(e.Message, "expect: ") {
		t.Fatalf("a bad expect: %v", err)
	}
}

func TestExpectADialogInANewWindow(t *testing.T) {
	r := newRig(t)
	reply, err := r.do(t, "click", api.ActionRequest{Target: r.target(t, "save"), Expect: &api.WaitRequest{Expr: "dialog", TimeoutMS: 5000}})
	if err != nil {
		t.Fatal(err)
	}
	if reply.Expect.Outcome != api.WaitMet || reply.Expect.Window == nil {
		t.Fatalf("expect %+v", reply.Expect)
	}
}

const mail = 502

// targetIn inspects a window of an app and returns SNAPSHOT:ELEMENT of the element the sim calls id.
func (r *rig) targetIn(t *testing.T, pid int, window, id string) string {
	t.Helper()
	insp, err := r.o.Inspect(context.Background(), observer.InspectRequest{App: model.AppQuery{PID: pid}, Window: window})
	if err != nil {
		t.Fatal(err)
	}
	want := r.desk.Ref(pid, id)
	snap, _ := r.o.Store().Get(insp.SnapshotID)
	for _, w := range snap.Walk.Nodes {
		if w.Ref == want {
			return insp.SnapshotID + ":" + model.ElementID(w.Index)
		}
	}
	t.Fatalf("%s is not in the inspection", id)
	return ""
}

// openCompose clicks Mail's Compose and returns the Send button of the window it opens.
func (r *rig) openCompose(t *testing.T) string {
	t.Helper()
	reply, err := r.do(t, "click", api.ActionRequest{Target: r.targetIn(t, mail, "", "compose"),
		Expect: &api.WaitRequest{Expr: `window:title="New Message"`, TimeoutMS: 5000}})
	if err != nil || reply.Expect.Outcome != api.WaitMet {
		t.Fatalf("compose: %+v %v", reply, err)
	}
	return r.targetIn(t, mail, "New Message", "compose-send")
}

// hasWindow reports, from the observer's own window list, whether the app has a window so titled.
func (r *rig) hasWindow(t *testing.T, pid int, title string) bool {
	t.Helper()
	_, wins, err := r.o.Windows(context.Background(), model.AppQuery{PID: pid})
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(wins, func(w model.Window) bool { return w.Title == title })
}

// An expect's window_gone without a title borrows the window of the action's snapshot: the one
// the action is on must go. One with a title keeps it; one about another app borrows nothing.
func TestExpectWindowGoneBorrowsTheSnapshotsWindow(t *testing.T) {
	t.Run("a window", func(t *testing.T) {
		r := newRig(t)
		send := r.openCompose(t)
		reply, err := r.do(t, "click", api.ActionRequest{Target: send, Expect: &api.WaitRequest{Expr: "window_gone", TimeoutMS: 5000}})
		if err != nil || reply.Expect.Outcome != api.WaitMet {
			t.Fatalf("%+v %v", reply, err)
		}
		if r.hasWindow(t, mail, "New Message") || !r.hasWindow(t, mail, "Inbox") {
			t.Fatal("the expect was met, but the compose window is there, or the inbox is not")
		}
	})
	t.Run("a sheet", func(t *testing.T) {
		r := newRig(t)
		if reply, err := r.do(t, "click", api.ActionRequest{Target: r.target(t, "save"), Expect: &api.WaitRequest{Expr: "dialog", TimeoutMS: 5000}}); err != nil || reply.Expect.Outcome != api.WaitMet {
			t.Fatalf("save: %+v %v", reply, err)
		}
		reply, err := r.do(t, "click", api.ActionRequest{Target: r.target(t, "save-sheet-ok"), Expect: &api.WaitRequest{Expr: "window_gone", TimeoutMS: 5000}})
		if err != nil || reply.Expect.Outcome != api.WaitMet {
			t.Fatalf("%+v %v", reply, err)
		}
		if _, ok := r.desk.Peek(notes, "save-sheet"); ok {
			t.Fatal("the expect was met, but the sheet is there")
		}
	})
	t.Run("a title is kept", func(t *testing.T) {
		r := newRig(t)
		send := r.openCompose(t)
		reply, err := r.do(t, "click", api.ActionRequest{Target: send, Expect: &api.WaitRequest{Expr: `window_gone:title="Inbox"`, TimeoutMS: 400}})
		if err != nil || reply.Expect.Outcome != api.WaitTimeout {
			t.Fatalf("the inbox stays, so the expect must time out: %+v %v", reply, err)
		}
	})
	t.Run("another app borrows nothing", func(t *testing.T) {
		r := newRig(t)
		send := r.openCompose(t)
		_, err := r.do(t, "click", api.ActionRequest{Target: send,
			Expect: &api.WaitRequest{Expr: "window_gone", AppTarget: api.AppTarget{PID: notes}, TimeoutMS: 400}})
		if e := model.AsError(err); e == nil || e.Code != model.CodeBadRequest || !strings.HasPrefix(e.Message, "expect: window_gone needs a window") {
			t.Fatalf("got %v", err)
		}
	})
}

// NaN and infinities are refused at the edge, with a suggestion, before any backend sees them.
func TestSetValueRefusesNonFiniteNumbers(t *testing.T) {
	r := newRig(t)
	vol := r.target(t, "volume")
	for _, v := range []string{"NaN", "Inf", "-Infinity", "+inf"} {
		_, err := r.do(t, "set_value", api.ActionRequest{Target: vol, Value: v})
		if e := model.AsError(err); e == nil || e.Code != model.CodeBadRequest || !strings.Contains(e.Suggestion, "finite") {
			t.Errorf("set_value %s: %v", v, err)
		}
	}
	if n := r.peek(t, "volume"); n.Value != "50" {
		t.Fatalf("the refused values reached the slider: %q", n.Value)
	}
	if reply, err := r.do(t, "set_value", api.ActionRequest{Target: vol, Value: "60"}); err != nil || !reply.Done {
		t.Fatalf("a finite value: %+v %v", reply, err)
	}
}
