package waiters

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
)

func TestParseLocator(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`role=button,name=Save`, `role=button,name=Save`},
		{`element:role=button , name~save`, `role=button,name~save`},
		{`name=/^Row 35\d$/,nth=2`, `name=/^Row 35\d$/,nth=2`},
		{`dialog:title~Save >> role=button,name=OK`, `dialog:title~Save >> role=button,name=OK`},
		{`role=toolbar>>role=button,nth=1`, `role=toolbar >> role=button,nth=1`},
		{`identifier=saveButton,state=enabled`, `identifier=saveButton,state=enabled`},
	} {
		l, err := ParseLocator(c.in)
		if err != nil {
			t.Errorf("ParseLocator(%q): %v", c.in, err)
			continue
		}
		if got := l.String(); got != c.want {
			t.Errorf("ParseLocator(%q).String() = %q, want %q", c.in, got, c.want)
		}
		if again, err := ParseLocator(l.String()); err != nil || again.String() != l.String() {
			t.Errorf("%q does not read back: %v", l.String(), err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{``, "expected a field"},
		{`nth=0,role=button`, "a number from 1"},
		{`role=button,nth=2,nth=3`, "nth is given twice"},
		{`role=button >> window:title=x`, "comes first"},
		{`window:title=Notes`, "'>>' and the element"},
		{`role=button >>`, "expected a field"},
		{`colour=red`, "expected a field"},
		{`role=button name=Save`, "expected ',', '>>' or the end"},
	} {
		_, err := ParseLocator(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || observer.CodeOf(err) != observer.CodeBadRequest {
			t.Errorf("ParseLocator(%q) = %v, want BAD_REQUEST with %q", c.in, err, c.want)
		}
	}
}

func TestIsLocator(t *testing.T) {
	for in, want := range map[string]bool{
		`role=button,name=Save`:      true,
		`name~Save`:                  true,
		`dialog >> role=button`:      true,
		`text:"Saved"`:               false,
		`element:role=button`:        false,
		`window:title~Report`:        false,
		`state:e3=checked`:           false,
		`text:"a >> b"`:              false,
		`element:name=a >> name=b`:   true,
		`value:role=slider,value=42`: false,
	} {
		if got := IsLocator(in); got != want {
			t.Errorf("IsLocator(%q) = %v, want %v", in, got, want)
		}
	}
}

// locate waits for a locator on the Notes app of the rig.
func (r *rig) locate(t testing.TB, expr string, checks Checks, timeout time.Duration) *Result {
	t.Helper()
	l, err := ParseLocator(expr)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.e.Wait(context.Background(), Request{Locator: l, Checks: checks, App: observer.AppQuery{PID: notes}, Timeout: timeout}, nil)
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
	if res.Outcome != Failed || observer.CodeOf(res.Error) != observer.CodeAmbiguousTarget {
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
	if res.Outcome != Timeout || observer.CodeOf(res.Error) != observer.CodeTimeout || res.Error.Details["check"] != CheckNotFound {
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
// keeps still, where it stopped.
func TestLocateWaitsForAMovingTargetToStop(t *testing.T) {
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
			time.Sleep(every) // the motion itself: one step a frame or so
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

// FuzzParseLocator: any text parses or is refused with a BAD_REQUEST at a column within it,
// never a panic; what parses renders to a form that parses back the same, and searches the
// Notes window's copy without a panic.
func FuzzParseLocator(f *testing.F) {
	for _, s := range []string{`role=button,name=Save`, `dialog:title~Save >> role=button,name=OK`, `name=/^Row 35\d$/,nth=2`,
		`window >> role=toolbar>>name~s,state!=focused`, `element:identifier=saveButton`, `nth=3`, `role=button >> window`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLocator(s)
		if err != nil {
			checkRefused(t, s, err)
			return
		}
		again, err := ParseLocator(l.String())
		if err != nil || again.String() != l.String() {
			t.Fatalf("%q renders as %q, which reads back as %v (%v)", s, l.String(), again, err)
		}
		l.FindIn(notesInspection())
	})
}

// notesInspection is a small inspection to search: a window, a toolbar with a button, a field.
func notesInspection() *observer.Inspection {
	v := "Shopping list"
	return &observer.Inspection{SnapshotID: "s_1", Window: observer.WindowRef{ID: "w1", Title: "Notes"}, Elements: []observer.Element{
		{ID: "e0", Depth: 0, Role: observer.RoleWindow, Name: "Notes"},
		{ID: "e1", Depth: 1, Parent: "e0", Role: observer.RoleToolbar},
		{ID: "e2", Depth: 2, Parent: "e1", Role: observer.RoleButton, Name: "Save", States: observer.StateEnabled},
		{ID: "e3", Depth: 1, Parent: "e0", Role: observer.RoleTextField, Name: "Title", Value: &v},
	}}
}

func TestFindIn(t *testing.T) {
	for expr, want := range map[string]string{
		`role=button`:                       "e2",
		`role=toolbar >> name=Save`:         "e2",
		`window:title=Notes >> role=button`: "e2",
		`dialog >> role=button`:             "",
		`role=text_field >> role=button`:    "",
		`value~shopping`:                    "e3",
		`name~t,nth=2`:                      "e3",
		`state=enabled`:                     "e2",
	} {
		l, err := ParseLocator(expr)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, el := range l.FindIn(notesInspection()) {
			got = append(got, el.ID)
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%s found %v, want %q", expr, got, want)
		}
	}
}
