package textform

import (
	"strings"
	"testing"

	"github.com/axbus/axbus/observer"
)

// shown are the states of an element on screen that a user can act on.
const shown = observer.StateVisible | observer.StateShowing | observer.StateFocusable

// listing is an inspection of els, each given as its parent's index (-1 for the root).
func listing(parents []int, els ...observer.Element) *observer.Inspection {
	insp := &observer.Inspection{SnapshotID: "s_0123456789ab", App: observer.AppRef{Name: "Notes", PID: 501},
		Window: observer.WindowRef{ID: "w1", Title: "Notes"}}
	for i, el := range els {
		el.ID = observer.ElementID(i)
		if p := parents[i]; p >= 0 {
			el.Parent = observer.ElementID(p)
			el.Depth = insp.Elements[p].Depth + 1
			insp.Elements[p].Children++
		}
		insp.Elements = append(insp.Elements, el)
	}
	return insp
}

// text is insp's text form, a line each.
func text(t *testing.T, insp *observer.Inspection) []string {
	t.Helper()
	var b strings.Builder
	if err := Of(insp)(&b); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// wantLines checks insp's text form line by line.
func wantLines(t *testing.T, insp *observer.Inspection, want []string) {
	t.Helper()
	if got := text(t, insp); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func ptr(s string) *string { return &s }

// A disabled element says so; the states every listed element has (visible, showing, enabled,
// focusable) are never written; an element that reports no state at all is not disabled.
func TestStatesSayTheExceptions(t *testing.T) {
	insp := listing([]int{-1, 0, 0, 0, 0, 0, 0},
		observer.Element{Role: observer.RoleWindow, Name: "Notes", States: shown | observer.StateEnabled | observer.StateActive},
		observer.Element{Role: observer.RoleCheckbox, Name: "Remember me", Value: ptr("0"), States: shown},
		observer.Element{Role: observer.RoleCheckbox, Name: "Bold", Value: ptr("1"), States: shown | observer.StateEnabled | observer.StateChecked | observer.StateFocused},
		observer.Element{Role: observer.RoleGroup, Name: "Web view"},
		observer.Element{Role: observer.RoleComboBox, Name: "Colour", States: shown | observer.StateEnabled | observer.StateExpandable},
		observer.Element{Role: observer.RoleTextField, Name: "Name", Value: ptr(""), States: shown | observer.StateEnabled | observer.StateEditable},
		observer.Element{Role: observer.RoleTextArea, Name: "Log", Value: ptr("line 1"), States: shown | observer.StateEnabled | observer.StateMultiLine | observer.StateReadOnly},
	)
	want := []string{
		`snapshot s_0123456789ab: Notes (pid 501), window "Notes": 7 elements`,
		`e0 window "Notes" [active]`,
		`  e1 checkbox "Remember me" [disabled]`,
		`  e2 checkbox "Bold" [focused,checked]`,
		`  e3 group "Web view"`,
		`  e4 combo_box "Colour" [collapsed]`,
		`  e5 text_field "Name"`,
		`  e6 text_area "Log" value="line 1" [read_only]`,
	}
	wantLines(t, insp, want)
}

// Unnamed containers with nothing to say are folded away, their children printed at their depth;
// one with a name, a state or the focus stays, and so does the root.
func TestStructuralContainersFold(t *testing.T) {
	insp := listing([]int{-1, 0, 1, 2, 2, 1, 5, 1, 7, 1, 9},
		observer.Element{Role: observer.RoleFiller, States: shown | observer.StateEnabled},                                         // e0, the root
		observer.Element{Role: observer.RoleFiller, States: observer.StateVisible | observer.StateShowing | observer.StateEnabled}, // e1 folded
		observer.Element{Role: observer.RoleScrollArea, States: observer.StateVisible | observer.StateEnabled},                     // e2 folded
		observer.Element{Role: observer.RoleButton, Name: "Save", States: shown | observer.StateEnabled},                           // e3 at depth 1
		observer.Element{Role: observer.RoleLabel, Name: "Ready", States: observer.StateEnabled},                                   // e4 at depth 1
		observer.Element{Role: observer.RolePanel, Name: "Sidebar", States: observer.StateEnabled},                                 // e5 named: stays
		observer.Element{Role: observer.RoleButton, Name: "Add", States: observer.StateEnabled},                                    // e6 at depth 2
		observer.Element{Role: observer.RoleGroup, States: shown | observer.StateEnabled},                                          // e7 focusable: stays
		observer.Element{Role: observer.RoleImage, Name: "Map", States: observer.StateEnabled},                                     // e8
		observer.Element{Role: observer.RoleGroup, States: observer.StateEnabled | observer.StateSelected},                         // e9 selected: stays
		observer.Element{Role: observer.RoleSplitGroup},                                                                            // e10 an empty leaf: folded
	)
	want := []string{
		`snapshot s_0123456789ab: Notes (pid 501), window "Notes": 11 elements, 3 folded`,
		`e0 filler`,
		`  e3 button "Save"`,
		`  e4 label "Ready"`,
		`  e5 panel "Sidebar"`,
		`    e6 button "Add"`,
		`  e7 group`,
		`    e8 image "Map"`,
		`  e9 group [selected]`,
	}
	wantLines(t, insp, want)
}

// Text that only repeats the element it is in is folded away (a cell's text, a button's label,
// the text of an entry's value), through folded containers too; other text stays.
func TestRepeatedTextFolds(t *testing.T) {
	insp := listing([]int{-1, 0, 1, 0, 3, 3, 0, 6, 7, 0, 9},
		observer.Element{Role: observer.RoleTable, Name: "Items"},
		observer.Element{Role: observer.RoleCell, Name: "Apples"},
		observer.Element{Role: observer.RoleText, Name: "Apples"}, // folded
		observer.Element{Role: observer.RoleButton, Name: "Save", States: shown | observer.StateEnabled},
		observer.Element{Role: observer.RoleLabel, Name: "Save", States: observer.StateEnabled | observer.StateVisible}, // folded
		observer.Element{Role: observer.RoleLabel, Name: "Ctrl+S"},
		observer.Element{Role: observer.RoleGroup, Name: "Size"},
		observer.Element{Role: observer.RoleLabel},              // unnamed: folded
		observer.Element{Role: observer.RoleText, Name: "Size"}, // repeats the group through the label: folded
		observer.Element{Role: observer.RoleTextArea, Name: "Editor", Value: ptr("Edit me"), States: shown | observer.StateEnabled | observer.StateEditable},
		observer.Element{Role: observer.RoleText, Name: "Edit me", Value: ptr("Edit me"), States: observer.StateEditable | observer.StateEnabled}, // folded
	)
	want := []string{
		`snapshot s_0123456789ab: Notes (pid 501), window "Notes": 11 elements, 5 folded`,
		`e0 table "Items"`,
		`  e1 cell "Apples"`,
		`  e3 button "Save"`,
		`    e5 label "Ctrl+S"`,
		`  e6 group "Size"`,
		`  e9 text_area "Editor" value="Edit me"`,
	}
	wantLines(t, insp, want)
}

// A secure field's value is never written, not even when a listing carries one.
func TestSecureValueNeverWritten(t *testing.T) {
	insp := listing([]int{-1}, observer.Element{Role: observer.RolePassword, Name: "Password", Value: ptr("hunter2"), Secure: true, States: shown | observer.StateEnabled})
	got := text(t, insp)
	if len(got) != 2 || got[1] != `e0 password_field "Password" (secure)` {
		t.Fatalf("%q", got)
	}
}

// Text recognised from pixels follows the elements, one line each with its box; a failure says
// why.
func TestRecognizedTextFollowsTheElements(t *testing.T) {
	insp := listing([]int{-1}, observer.Element{Role: observer.RoleWindow, Name: "Notes", States: shown | observer.StateEnabled})
	insp.RecognizedText = &observer.RecognizedText{From: observer.RecognizedFrom, Lines: []observer.RecognizedLine{
		{Text: "Save", Confidence: 0.96, Box: observer.Rect{X: 0.125, Y: 0.4, W: 0.1, H: 0.03}},
		{Text: "Ready", Confidence: 0.9, Box: observer.Rect{X: 0.5, Y: 0.9, W: 0.2, H: 0.03}},
	}, Truncated: "line limit (300)"}
	want := []string{
		`snapshot s_0123456789ab: Notes (pid 501), window "Notes": 1 elements`,
		`e0 window "Notes"`,
		`text from pixels (OCR, may be wrong; boxes as fractions of the window): 2 lines, cut by the line limit (300)`,
		`  "Save" at 0.12,0.40 0.10x0.03`,
		`  "Ready" at 0.50,0.90 0.20x0.03`,
	}
	wantLines(t, insp, want)

	insp.RecognizedText = &observer.RecognizedText{From: observer.RecognizedFrom, Lines: []observer.RecognizedLine{},
		Error: observer.Errorf(observer.CodeNotSupported, "Install Tesseract.", "no text recognition on this machine")}
	got := text(t, insp)
	if last := got[len(got)-1]; !strings.HasSuffix(last, ": 0 lines, none: NOT_SUPPORTED: no text recognition on this machine") {
		t.Fatalf("%q", last)
	}
}
