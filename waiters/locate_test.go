package waiters

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/waiters/condition"
)

// locate waits for a locator on the Notes app of the rig.
func (r *rig) locate(t testing.TB, expr string, checks Checks, timeout time.Duration) *Result {
	t.Helper()
	l, err := condition.ParseLocator(expr)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.e.Wait(context.Background(), Request{Locator: l, Checks: checks, App: model.AppQuery{PID: notes}, Timeout: timeout}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

var allChecks = Checks{Unique: true, Visible: true, Enabled: true, Stable: true, Uncovered: true}

func TestLocateFindsOneElement(t *testing.T) {
	r := newRig(t)
	res := r.locate(t, `role=button,name=Save`, allChecks, 2*time.Second)
	if res.Outcome != Met || res.Match == nil || res.Match.Name != "Save" || res.Snapshot == nil {
		t.Fatalf("locate = %+v, want Save met with a snapshot", res)
	}
	if insp := listing(res); insp == nil || insp.SnapshotID == "" {
		t.Fatalf("the reply's snapshot does not decode: %+v", res.Snapshot)
	}
	if res.Condition != `role=button,name=Save` {
		t.Errorf("condition = %q", res.Condition)
	}
}

func TestLocateAmbiguousAndNth(t *testing.T) {
	r := newRig(t)
	if err := r.desk.AddNode(notes, "toolbar", sim.NodeSpec{ID: "save2", Role: "AXButton", Title: "Save", Frame: []float64{300, 84, 64, 28}}); err != nil {
		t.Fatal(err)
	}
	res := r.locate(t, `role=button,name=Save`, allChecks, 2*time.Second)
	if res.Outcome != Failed || model.CodeOf(res.Error) != model.CodeAmbiguousTarget {
		t.Fatalf("locate = %+v, want AMBIGUOUS_TARGET", res)
	}
	cands, _ := res.Error.Details["candidates"].([]api.Candidate)
	if len(cands) != 2 || cands[0].Bounds == nil || cands[1].Bounds == nil || cands[1].Bounds.X != 300 || cands[1].Nth != 2 {
		t.Fatalf("candidates = %+v, want both Save buttons, the second at x 300", res.Error.Details["candidates"])
	}
	res = r.locate(t, `role=button,name=Save,nth=2`, allChecks, 2*time.Second)
	if res.Outcome != Met || res.Match.Bounds == nil || res.Match.Bounds.X != 300 {
		t.Fatalf("nth=2 = %+v, want the second Save", res)
	}
	res = r.locate(t, `role=toolbar >> name=Save,nth=1`, allChecks, 2*time.Second)
	if res.Outcome != Met || res.Match.Bounds.X != 110 {
		t.Fatalf("toolbar >> nth=1 = %+v, want the first Save", res)
	}
}

func TestLocateTimesOutSayingWhy(t *testing.T) {
	r := newRig(t)
	res := r.locate(t, `role=button,name=Nowhere`, allChecks, 200*time.Millisecond)
	if res.Outcome != Timeout || model.CodeOf(res.Error) != model.CodeTimeout || res.Error.Details["check"] != CheckNotFound {
		t.Fatalf("locate = %+v, want TIMEOUT not_found", res)
	}
	if err := r.desk.SetEnabled(notes, "save", false); err != nil {
		t.Fatal(err)
	}
	res = r.locate(t, `role=button,name=Save`, allChecks, 200*time.Millisecond)
	if res.Outcome != Timeout || res.Error.Details["check"] != CheckDisabled || res.Error.Suggestion == "" {
		t.Fatalf("locate = %+v, want TIMEOUT disabled with a suggestion", res)
	}
	res = r.locate(t, `name=Save`, Checks{}, 200*time.Millisecond) // a wait asks for no actionability
	if res.Outcome != Met {
		t.Fatalf("a disabled element is still found: %+v", res)
	}
	if err := r.desk.Move(notes, "save", 2000, 0); err != nil {
		t.Fatal(err)
	}
	res = r.locate(t, `role=button,name=Save`, Checks{Visible: true}, 200*time.Millisecond)
	if res.Outcome != Timeout || res.Error.Details["check"] != CheckNotVisible {
		t.Fatalf("locate = %+v, want TIMEOUT not_visible", res)
	}
}

// TestLocateWaitsForAMovingTargetToStop: a target that moves for 200 ms is found only once it
// keeps still, where it stopped. Time is the subject: the test runs in a synctest bubble, on
// virtual time, so the motion and the 50 ms of stillness are exact however loaded the machine.
func TestLocateWaitsForAMovingTargetToStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.locate(t, `role=button,name=Save`, Checks{}, time.Second) // the watcher is warm: its first look is no excuse
		const steps, every = 10, 20 * time.Millisecond
		lastMove, moving := make(chan time.Time, 1), make(chan struct{})
		go func() {
			var at time.Time
			for i := range steps {
				at = time.Now()
				if err := r.desk.Move(notes, "save", 5, 0); err != nil {
					t.Error(err)
				}
				if i == 0 {
					close(moving)
				}
				time.Sleep(every) // the motion itself, in virtual time: one step a frame or so
			}
			lastMove <- at
		}()
		<-moving // mid-motion
		res := r.locate(t, `role=button,name=Save`, Checks{Stable: true}, 3*time.Second)
		done := time.Now()
		last := <-lastMove
		if res.Outcome != Met {
			t.Fatalf("locate = %+v", res)
		}
		if res.Match.Bounds == nil || res.Match.Bounds.X != 110+5*steps {
			t.Fatalf("found at %+v, want where it stopped (x %d)", res.Match.Bounds, 110+5*steps)
		}
		if done.Before(last.Add(Settle)) {
			t.Fatalf("found %v after the last move, before it had kept still for %v", done.Sub(last), Settle)
		}
	})
}

func TestLocateRefusesACoveredTargetForPhysicalInput(t *testing.T) {
	r := newRig(t)
	cover := sim.NodeSpec{ID: "popup", Role: "AXWindow", Title: "Popup", Frame: []float64{100, 70, 200, 60}}
	if err := r.desk.AddNode(notes, "", cover); err != nil {
		t.Fatal(err)
	}
	res := r.locate(t, `role=button,name=Save`, allChecks, 300*time.Millisecond)
	if res.Outcome != Timeout || res.Error.Details["check"] != CheckCovered {
		t.Fatalf("locate = %+v, want TIMEOUT covered", res)
	}
	if res := r.locate(t, `role=button,name=Save`, Checks{Unique: true, Visible: true, Enabled: true, Stable: true}, time.Second); res.Outcome != Met {
		t.Fatalf("without physical input a covered element is still actionable: %+v", res)
	}
	if err := r.desk.RemoveNode(notes, "popup"); err != nil {
		t.Fatal(err)
	}
	if res := r.locate(t, `role=button,name=Save`, allChecks, time.Second); res.Outcome != Met {
		t.Fatalf("uncovered again: %+v", res)
	}
}
