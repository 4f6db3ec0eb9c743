package model

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"
)

// sampleInspection lists elements with every field set and unset, and strings that need
// escaping.
func sampleInspection() *Inspection {
	v, empty := "42 <b>&\"x\"\n", ""
	return &Inspection{
		SnapshotID: "snap_1", App: AppRef{Name: "Notes", PID: 501, Generation: 2}, Window: WindowRef{ID: "w1", Title: "Notes"},
		Created: time.Date(2026, 12, 1, 2, 3, 4, 5, time.UTC), Budget: UnscopedBudget(), Truncated: true,
		Truncation: []Truncation{TruncatedCount}, OffscreenOmitted: 3, Scope: &ScopeInfo{Element: "e0"}, Walked: 3,
		Elements: []Element{
			{ID: "e0", Depth: 0, Role: RoleWindow, PlatformRole: "AXWindow", Name: "Notes", Bounds: &Rect{X: 100, Y: 50.5, W: 900, H: 1e-7},
				States: StateEnabled | StateFocused, Actions: []string{"AXRaise"}, Children: 2},
			{ID: "e1", Parent: "e0", Depth: 1, Role: RoleText, Value: &v, Text: "line\u2028two\xff", Identifier: "body", Secure: true,
				States: 1 << 40},
			{ID: "e2", Parent: "e0", Depth: 1, Role: RoleButton, Value: &empty, Label: "Save", Description: "tab\there",
				Bounds: &Rect{X: -3, Y: 2e21, W: 0, H: 64}, Actions: []string{}},
		},
	}
}

func TestInspectionJSONIsEncodingJSON(t *testing.T) {
	for _, insp := range []*Inspection{sampleInspection(), {SnapshotID: "none"}, {Elements: []Element{}}} {
		want, err := json.Marshal(insp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := insp.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON differs from encoding/json:\n got %s\nwant %s", got, want)
		}
	}
	bad := sampleInspection()
	bad.Elements[0].Bounds.X = math.NaN()
	if _, err := bad.AppendJSON(nil); err == nil {
		t.Fatal("NaN bounds encoded")
	}
}

// BenchmarkInspectionJSON compares the listing's encoder with encoding/json.
func BenchmarkInspectionJSON(b *testing.B) {
	insp := sampleInspection()
	for len(insp.Elements) < 60 {
		insp.Elements = append(insp.Elements, insp.Elements[:3]...)
	}
	b.Run("AppendJSON", func(b *testing.B) {
		for b.Loop() {
			if _, err := insp.AppendJSON(nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(insp); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzInspectionJSON holds AppendJSON to encoding/json's bytes for any element.
func FuzzInspectionJSON(f *testing.F) {
	f.Add("Save", "<b>\"&\"</b>", "\xff\u2028\x01", "AXButton", 1.5, -2e-7, 3e21, uint64(5), 2, true)
	f.Add("", "", "", "", 0.0, 0.0, 0.0, uint64(0), 0, false)
	f.Fuzz(func(t *testing.T, name, value, text, role string, x, y, w float64, states uint64, children int, secure bool) {
		el := Element{ID: "e0", Name: name, Value: &value, Text: text, Role: Role(role), PlatformRole: role,
			Bounds: &Rect{X: x, Y: y, W: w, H: x * y}, States: States(states), Actions: []string{name, text},
			Secure: secure, Children: children, Depth: children, Parent: text, Locator: value}
		insp := &Inspection{SnapshotID: name, Elements: []Element{el, {ID: "e1", Label: value}}}
		want, wantErr := json.Marshal(insp)
		got, err := insp.AppendJSON(nil)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("error %v, encoding/json %v", err, wantErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON differs from encoding/json:\n got %s\nwant %s", got, want)
		}
	})
}
