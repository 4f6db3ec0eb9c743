package waiters

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/waiters/condition"
	"go.uber.org/goleak"
)

const notes = 501

// rig is an engine on the simulated demo desktop.
type rig struct {
	o    *observer.Observer
	desk *sim.Desktop
	e    *Engine
}

func newRig(t testing.TB) *rig {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	desk, err := sim.Fixture("demo")
	if err != nil {
		t.Fatal(err)
	}
	return rigOn(t, desk)
}

// rigOn is an engine on desk, closed with the test.
func rigOn(t testing.TB, desk *sim.Desktop) *rig {
	t.Helper()
	t.Cleanup(func() { _ = desk.Close() })
	o := observer.New(desk)
	e := New(o)
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
	return &rig{o: o, desk: desk, e: e}
}

func (r *rig) wait(t testing.TB, expr string, app model.AppQuery, timeout time.Duration, act func()) *Result {
	t.Helper()
	cond, err := condition.ParseCompact(expr)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.e.Wait(context.Background(), Request{Condition: cond, App: app, Timeout: timeout}, act)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (r *rig) press(t testing.TB, id string) {
	t.Helper()
	if err := r.desk.Perform(context.Background(), r.desk.Ref(notes, id), "AXPress"); err != nil {
		t.Fatal(err)
	}
}

// listing is the inspection a result's snapshot lists, or nil.
func listing(res *Result) *model.Inspection {
	if res.Snapshot == nil {
		return nil
	}
	insp, err := res.Snapshot.Inspection()
	if err != nil {
		return nil
	}
	return insp
}

func listsMatch(res *Result) bool {
	insp := listing(res)
	if insp == nil || res.Match == nil {
		return false
	}
	for _, e := range insp.Elements {
		if e.ID == res.Match.ID && e.Name == res.Match.Name {
			return true
		}
	}
	return false
}

var notesApp = model.AppQuery{PID: notes}

func TestWaitTextAppearsAfterADelayedPress(t *testing.T) {
	r := newRig(t)
	res := r.wait(t, `text:"Saved"`, notesApp, 5*time.Second, func() { r.press(t, "save") })
	if res.Outcome != Met || res.Trigger == nil || res.Trigger.Kind != "event" || !listsMatch(res) {
		t.Fatalf("result %+v", res)
	}
	if res.ElapsedMS < 150 || res.ElapsedMS > 1500 {
		t.Fatalf("met after %.0f ms; the label appears 200 ms after the press", res.ElapsedMS)
	}
	if _, err := r.o.Store().Get(listing(res).SnapshotID); err != nil {
		t.Fatal("the reply's snapshot is not stored: its ids would not be actionable")
	}
}

func TestWaitMetAtOnceWhenItHolds(t *testing.T) {
	r := newRig(t)
	res := r.wait(t, `element:role=button,name="Save"`, notesApp, 5*time.Second, nil)
	if res.Outcome != Met || res.Trigger.Kind != "initial" || !listsMatch(res) {
		t.Fatalf("result %+v", res)
	}
}

func TestWaitDialogAndElementGone(t *testing.T) {
	r := newRig(t)
	res := r.wait(t, `dialog`, notesApp, 5*time.Second, func() { r.press(t, "save") })
	if res.Outcome != Met || res.Window == nil || res.Snapshot == nil {
		t.Fatalf("dialog: %+v", res)
	}
	res = r.wait(t, `element:role=button,name="OK" gone`, notesApp, 5*time.Second, func() { r.press(t, "save-sheet-ok") })
	if res.Outcome != Met || res.Match != nil {
		t.Fatalf("gone: %+v", res)
	}
}

func TestWaitMatchPastTheBudgetIsListedFromItsListingRoot(t *testing.T) {
	r := newRig(t)
	res := r.wait(t, `text:"Row 350"`, notesApp, 5*time.Second, nil)
	if res.Outcome != Met || !listsMatch(res) || listing(res).Scope == nil {
		t.Fatalf("result %+v", res)
	}
	insp := listing(res)
	if n := len(insp.Elements); n > observer.ListingRootLimit {
		t.Fatalf("the listing root lists %d elements", n)
	}
	if insp.Elements[0].ID != insp.Scope.Element {
		t.Fatal("the listing does not start at the scope it names")
	}
}

func TestWaitAppGoneAndTimeout(t *testing.T) {
	r := newRig(t)
	var killed time.Time
	res := r.wait(t, `text:"never there"`, notesApp, 5*time.Second, func() {
		go func() { // armed: the wait listens, and sees the app go
			killed = time.Now()
			_ = r.desk.Kill(notes)
		}()
	})
	if res.Outcome != AppGone || time.Since(killed) > 200*time.Millisecond {
		t.Fatalf("killed app: %+v after %v", res, time.Since(killed))
	}
	start := time.Now()
	res = r.wait(t, `text:"never there"`, model.AppQuery{PID: 502}, 300*time.Millisecond, nil)
	if late := time.Since(start) - 300*time.Millisecond; res.Outcome != Timeout || late < 0 || late > 50*time.Millisecond {
		t.Fatalf("timeout: %+v, %v past the deadline", res, late)
	}
}

func TestWaitForAWindowOfAnAppNotRunningYet(t *testing.T) {
	r := newRig(t)
	spec, _ := r.desk.AppSpec("Mail")
	if err := r.desk.Kill(502); err != nil { // no Inbox anywhere when the wait begins
		t.Fatal(err)
	}
	res := r.wait(t, `window:title~"Inbox"`, model.AppQuery{}, 5*time.Second, func() {
		go func() { // armed: the wait listens for the launch
			spec.PID = 777
			if _, err := r.desk.Launch(spec); err != nil {
				t.Error(err)
			}
		}()
	})
	if res.Outcome != Met || res.App == nil || res.App.PID != 777 || res.Window == nil {
		t.Fatalf("result %+v", res)
	}
}

func TestBadConditionsAreRefused(t *testing.T) {
	r := newRig(t)
	for _, c := range []struct{ expr, want string }{
		{`colour:"red"`, "column 1"},
		{`text:/(/`, "regex"},
		{`element:`, "column 9"},
	} {
		_, err := condition.ParseCompact(c.expr)
		if model.CodeOf(err) != model.CodeBadRequest || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.expr, err)
		}
	}
	cond, _ := condition.ParseCompact(`text:"x"`)
	for _, req := range []Request{
		{Condition: cond, App: notesApp, Timeout: 10 * time.Minute},
		{Condition: cond, App: notesApp, Timeout: -time.Second},
		{Condition: cond, App: model.AppQuery{PID: 4242}}, // a pid names one process: none is no wait
		{Condition: cond, Window: "Main"},
	} {
		if _, err := r.e.Wait(context.Background(), req, nil); err == nil || model.AsError(err).Suggestion == "" {
			t.Errorf("%+v: %v", req, err)
		}
	}
}

// An unknown or expired snapshot is SNAPSHOT_EXPIRED whatever the condition: one that names no
// element of it too, with or without an app.
func TestWaitWithAnUnknownSnapshotIsExpired(t *testing.T) {
	r := newRig(t)
	for _, expr := range []string{`text:"Saved"`, `state:e3=checked`, `window_gone`, `dialog`} {
		for _, app := range []model.AppQuery{{}, notesApp} {
			cond, err := condition.ParseCompact(expr)
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.e.Wait(context.Background(), Request{Condition: cond, App: app, Snapshot: "s_0123456789ab", Timeout: 200 * time.Millisecond}, nil)
			if e := model.AsError(err); e == nil || e.Code != model.CodeSnapshotExpired || e.Suggestion == "" {
				t.Errorf("%s, app %+v: %v", expr, app, err)
			}
		}
	}
}

// TestThousandWaitsResolve: 1,000 waits at once on one app, each for its own label, all met
// by the label they wait for.
func TestThousandWaitsResolve(t *testing.T) {
	r := newRig(t)
	n := 1000
	if testing.Short() {
		n = 300
	}
	var wg sync.WaitGroup
	armed := make(chan struct{}, n)
	results := make([]*Result, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cond, _ := condition.ParseCompact(fmt.Sprintf(`text="label %d"`, i)) // exact: "label 1" is in "label 10"
			res, err := r.e.Wait(context.Background(), Request{Condition: cond, App: notesApp, Timeout: 20 * time.Second},
				func() { armed <- struct{}{} })
			if err != nil {
				t.Error(err)
				return
			}
			results[i] = res
		}()
	}
	for range n {
		<-armed
	}
	for g := range (n + 99) / 100 { // groups of 100: no element has more children than a walk takes
		if err := r.desk.AddNode(notes, "main", sim.NodeSpec{ID: fmt.Sprint("g", g), Role: "AXGroup", Frame: []float64{300, 84, 60, 20}}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		if err := r.desk.AddNode(notes, fmt.Sprint("g", i/100), sim.NodeSpec{ID: fmt.Sprint("l", i), Role: "AXStaticText",
			Value: textOf(fmt.Sprintf("label %d", i)), Frame: []float64{300, 84, 60, 20}}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	for i, res := range results {
		if res == nil || res.Outcome != Met || res.Match == nil || !strings.Contains(res.Match.Name+res.Match.Text+valueOf(res.Match), fmt.Sprintf("label %d", i)) {
			t.Fatalf("wait %d: %+v", i, res)
		}
	}
}

func textOf(s string) *sim.Text {
	t := sim.Text(s)
	return &t
}

func valueOf(e *model.Element) string {
	if e.Value == nil {
		return ""
	}
	return *e.Value
}
