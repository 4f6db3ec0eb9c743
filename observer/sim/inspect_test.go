package sim

import (
	"context"
	"slices"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// inspectNotes runs the observer's unscoped inspection of the Notes window.
func inspectNotes(t *testing.T, d *Desktop) *model.Inspection {
	t.Helper()
	ins, err := observer.New(d).Inspect(context.Background(), observer.InspectRequest{App: model.AppQuery{Name: "Notes"}})
	if err != nil {
		t.Fatal(err)
	}
	return ins
}

func names(ins *model.Inspection) []string {
	var out []string
	for _, e := range ins.Elements {
		out = append(out, e.Name)
	}
	return out
}

func TestInspectListsVisibleRowsOnly(t *testing.T) {
	d, _ := fakeDemo(t)
	ins := inspectNotes(t, d)
	got := names(ins)
	rows := 0
	for _, e := range ins.Elements {
		if e.Role == model.RoleRow {
			rows++
		}
	}
	if rows < 14 || rows > 16 {
		t.Errorf("%d rows listed, want the ~15 inside the scroll area", rows)
	}
	for _, want := range []string{"Save", "Title", "Password", "Remember me", "Volume", "Row 1", "Row 14", "Release notes", "Known issues", "Read the documentation"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q not listed", want)
		}
	}
	// Below the table's viewport, and below the web area's visible part (the clip narrowed at
	// the scroll area and again at the web area).
	for _, absent := range []string{"Row 16", "Row 100", "Row 400", "Archive", "Older releases", "Last updated in spring."} {
		if slices.Contains(got, absent) {
			t.Errorf("%q listed though off-screen", absent)
		}
	}
	if ins.OffscreenOmitted == 0 {
		t.Error("offscreen_omitted = 0")
	}
	for _, e := range ins.Elements {
		if e.Secure && e.Value != nil {
			t.Errorf("secure %s listed with value %q", e.Name, *e.Value)
		}
	}
}

// The focused element is listed even when it lies outside the viewport. Row 60 is within the
// unscoped children budget (100 per node).
func TestInspectListsFocusedOffscreenRow(t *testing.T) {
	d, _ := fakeDemo(t)
	if err := d.SetFocus(notesPID, "row-60"); err != nil {
		t.Fatal(err)
	}
	assertFocusedListed(t, inspectNotes(t, d), "row-60")
}

// Row 350 lies beyond the children budget as well as off-screen: the focus path must survive
// both cuts.
func TestInspectListsFocusedRowBeyondChildrenBudget(t *testing.T) {
	d, _ := fakeDemo(t)
	if err := d.SetFocus(notesPID, "row-350"); err != nil {
		t.Fatal(err)
	}
	assertFocusedListed(t, inspectNotes(t, d), "row-350")
}

func assertFocusedListed(t *testing.T, ins *model.Inspection, id string) {
	t.Helper()
	for _, e := range ins.Elements {
		if e.States.Has(model.StateFocused) {
			if e.Role != model.RoleRow {
				t.Fatalf("focused element is a %s", e.Role)
			}
			return
		}
	}
	t.Fatalf("focused %s not listed; offscreen_omitted %d, truncation %v", id, ins.OffscreenOmitted, ins.Truncation)
}
