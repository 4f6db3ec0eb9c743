package observer_test

import (
	"context"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
)

const notes = 501

// demo is the simulated demo desktop under an observer.
func demo(t *testing.T) (*observer.Observer, *sim.Desktop) {
	t.Helper()
	d := fixtureDesktop(t, "demo")
	return observer.New(d), d
}

func inspectNotes(t *testing.T, o *observer.Observer) *model.Inspection {
	t.Helper()
	insp, err := o.Inspect(context.Background(), observer.InspectRequest{App: model.AppQuery{PID: notes}})
	if err != nil {
		t.Fatal(err)
	}
	return insp
}

func elementWhere(t *testing.T, insp *model.Inspection, pred func(model.Element) bool) model.Element {
	t.Helper()
	for _, e := range insp.Elements {
		if pred(e) {
			return e
		}
	}
	t.Fatalf("no such element in %s", insp.SnapshotID)
	return model.Element{}
}

func scope(insp *model.Inspection, el model.Element) *observer.Scope {
	return &observer.Scope{Snapshot: insp.SnapshotID, Element: el.ID}
}

func TestUnscopedListsVisibleRowsAndScopeReachesAll400(t *testing.T) {
	o, _ := demo(t)
	insp := inspectNotes(t, o)
	rows := 0
	for _, e := range insp.Elements {
		if e.PlatformRole == "AXRow" {
			rows++
		}
	}
	if rows == 0 || rows > 20 || insp.OffscreenOmitted == 0 {
		t.Fatalf("unscoped: %d rows listed, %d off-screen omitted; want only the visible rows", rows, insp.OffscreenOmitted)
	}
	area := elementWhere(t, insp, func(e model.Element) bool { return e.Role == model.RoleScrollArea && e.Description == "Items" })
	scoped, err := o.Inspect(context.Background(), observer.InspectRequest{Scope: scope(insp, area)})
	if err != nil {
		t.Fatal(err)
	}
	rows = 0
	for _, e := range scoped.Elements {
		if e.PlatformRole == "AXRow" {
			rows++
		}
	}
	if rows != 400 || scoped.Scope == nil || scoped.Scope.From != insp.SnapshotID+":"+area.ID {
		t.Fatalf("scoped: %d rows, scope %+v", rows, scoped.Scope)
	}
	if scoped.Elements[0].ID != scoped.Scope.Element || scoped.Budget.MaxElements != 4000 {
		t.Fatalf("the listing starts at %s, scope element %s, budget %+v", scoped.Elements[0].ID, scoped.Scope.Element, scoped.Budget)
	}
	snap, err := o.Store().Get(scoped.SnapshotID) // every listed id is actionable in the new snapshot
	if err != nil {
		t.Fatal(err)
	}
	last := scoped.Elements[len(scoped.Elements)-1]
	if el, err := snap.Element(last.ID); err != nil || el.Name != last.Name {
		t.Fatalf("element %s of the scoped listing: %v", last.ID, err)
	}
}

func TestScopeRefusals(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(d *sim.Desktop) error
		code   model.Code
	}{
		{"moved", func(d *sim.Desktop) error { return d.Move(notes, "save", 30, 0) }, model.CodeScopeMoved},
		{"renamed", func(d *sim.Desktop) error { return d.SetTitle(notes, "save", "Store") }, model.CodeScopeChanged},
		{"removed", func(d *sim.Desktop) error { return d.RemoveNode(notes, "save") }, model.CodeScopeChanged},
		{"an identical twin", func(d *sim.Desktop) error {
			return d.AddNode(notes, "toolbar", sim.NodeSpec{ID: "save-twin", Role: "AXButton", Title: "Save",
				Help: "Save the note", Identifier: "saveButton", Frame: []float64{110, 84, 64, 28}})
		}, model.CodeScopeAmbiguous},
		{"app restarted", func(d *sim.Desktop) error { return d.Relaunch(notes) }, model.CodeScopeGeneration},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, d := demo(t)
			insp := inspectNotes(t, o)
			save := elementWhere(t, insp, func(e model.Element) bool { return e.Role == model.RoleButton && e.Name == "Save" })
			if c.name == "an identical twin" && (save.Bounds == nil || *save.Bounds != (model.Rect{X: 110, Y: 84, W: 64, H: 28})) {
				t.Fatalf("the twin must sit where Save is, at %+v", save.Bounds)
			}
			if err := c.change(d); err != nil {
				t.Fatal(err)
			}
			before, _ := o.Store().Stats()
			_, err := o.Inspect(context.Background(), observer.InspectRequest{Scope: scope(insp, save)})
			e := model.AsError(err)
			if e == nil || e.Code != c.code || e.Suggestion == "" {
				t.Fatalf("got %v, want %s with a suggestion", err, c.code)
			}
			if after, _ := o.Store().Stats(); after != before {
				t.Fatalf("a refused scope stored a snapshot (%d -> %d)", before, after)
			}
		})
	}
}

func TestScopeFindsTheSameElementUnchanged(t *testing.T) {
	o, _ := demo(t)
	insp := inspectNotes(t, o)
	save := elementWhere(t, insp, func(e model.Element) bool { return e.Role == model.RoleButton && e.Name == "Save" })
	scoped, err := o.Inspect(context.Background(), observer.InspectRequest{Scope: scope(insp, save)})
	if err != nil {
		t.Fatal(err)
	}
	if len(scoped.Elements) != 1 || scoped.Elements[0].Name != "Save" || *scoped.Elements[0].Bounds != *save.Bounds {
		t.Fatalf("scoped listing %+v", scoped.Elements)
	}
	if _, err := o.Inspect(context.Background(), observer.InspectRequest{Scope: &observer.Scope{Snapshot: "s_000000000000", Element: "e1"}}); model.CodeOf(err) != model.CodeSnapshotExpired {
		t.Fatalf("unknown snapshot: %v", err)
	}
}
