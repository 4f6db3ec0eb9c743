package textform

import (
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

// shown are the states of an element on screen that a user can act on.
const shown = model.StateVisible | model.StateShowing | model.StateFocusable

// listing is an inspection of els, each given as its parent's index (-1 for the root).
func listing(parents []int, els ...model.Element) *model.Inspection {
	insp := &model.Inspection{SnapshotID: "s_0123456789ab", App: model.AppRef{Name: "Notes", PID: 501},
		Window: model.WindowRef{ID: "w1", Title: "Notes"}}
	for i, el := range els {
		el.ID = model.ElementID(i)
		if p := parents[i]; p >= 0 {
			el.Parent = model.ElementID(p)
			el.Depth = insp.Elements[p].Depth + 1
			insp.Elements[p].Children++
		}
		insp.Elements = append(insp.Elements, el)
	}
	return insp
}

// text is insp's text form, a line each.
func text(t *testing.T, insp *model.Inspection) []string {
	t.Helper()
	var b strings.Builder
	if err := Of(insp)(&b); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// wantLines checks insp's text form line by line.
func wantLines(t *testing.T, insp *model.Inspection, want []string) {
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
		model.Element{Role: model.RoleWindow, Name: "Notes", States: shown | model.StateEnabled | model.StateActive},
		model.Element{Role: model.RoleCheckbox, Name: "Remember me", Value: ptr("0"), States: shown},
		model.Element{Role: model.RoleCheckbox, Name: "Bold", Value: ptr("1"), States: shown | model.StateEnabled | model.StateChecked | model.StateFocused},
		model.Element{Role: model.RoleGroup, Name: "Web view"},
		model.Element{Role: model.RoleComboBox, Name: "Colour", States: shown | model.StateEnabled | model.StateExpandable},
		model.Element{Role: model.RoleTextField, Name: "Name", Value: ptr(""), States: shown | model.StateEnabled | model.StateEditable},
		model.Element{Role: model.RoleTextArea, Name: "Log", Value: ptr("line 1"), States: shown | model.StateEnabled | model.StateMultiLine | model.StateReadOnly},
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
		model.Element{Role: model.RoleFiller, States: shown | model.StateEnabled},                                   // e0, the root
		model.Element{Role: model.RoleFiller, States: model.StateVisible | model.StateShowing | model.StateEnabled}, // e1 folded
		model.Element{Role: model.RoleScrollArea, States: model.StateVisible | model.StateEnabled},                  // e2 folded
		model.Element{Role: model.RoleButton, Name: "Save", States: shown | model.StateEnabled},                     // e3 at depth 1
		model.Element{Role: model.RoleLabel, Name: "Ready", States: model.StateEnabled},                             // e4 at depth 1
		model.Element{Role: model.RolePanel, Name: "Sidebar", States: model.StateEnabled},                           // e5 named: stays
		model.Element{Role: model.RoleButton, Name: "Add", States: model.StateEnabled},                              // e6 at depth 2
		model.Element{Role: model.RoleGroup, States: shown | model.StateEnabled},                                    // e7 focusable: stays
		model.Element{Role: model.RoleImage, Name: "Map", States: model.StateEnabled},                               // e8
		model.Element{Role: model.RoleGroup, States: model.StateEnabled | model.StateSelected},                      // e9 selected: stays
		model.Element{Role: model.RoleSplitGroup},                                                                   // e10 an empty leaf: folded
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
		model.Element{Role: model.RoleTable, Name: "Items"},
		model.Element{Role: model.RoleCell, Name: "Apples"},
		model.Element{Role: model.RoleText, Name: "Apples"}, // folded
		model.Element{Role: model.RoleButton, Name: "Save", States: shown | model.StateEnabled},
		model.Element{Role: model.RoleLabel, Name: "Save", States: model.StateEnabled | model.StateVisible}, // folded
		model.Element{Role: model.RoleLabel, Name: "Ctrl+S"},
		model.Element{Role: model.RoleGroup, Name: "Size"},
		model.Element{Role: model.RoleLabel},              // unnamed: folded
		model.Element{Role: model.RoleText, Name: "Size"}, // repeats the group through the label: folded
		model.Element{Role: model.RoleTextArea, Name: "Editor", Value: ptr("Edit me"), States: shown | model.StateEnabled | model.StateEditable},
		model.Element{Role: model.RoleText, Name: "Edit me", Value: ptr("Edit me"), States: model.StateEditable | model.StateEnabled}, // folded
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
	insp := listing([]int{-1}, model.Element{Role: model.RolePassword, Name: "Password", Value: ptr("hunter2"), Secure: true, States: shown | model.StateEnabled})
	got := text(t, insp)
	if len(got) != 2 || got[1] != `e0 password_field "Password" (secure)` {
		t.Fatalf("%q", got)
	}
}

// Text recognised from pixels follows the elements, one line each with its box; a failure says
// why.
func TestRecognizedTextFollowsTheElements(t *testing.T) {
	insp := listing([]int{-1}, model.Element{Role: model.RoleWindow, Name: "Notes", States: shown | model.StateEnabled})
	insp.RecognizedText = &model.RecognizedText{From: model.RecognizedFrom, Lines: []model.RecognizedLine{
		{Text: "Save", Confidence: 0.96, Box: model.Rect{X: 0.125, Y: 0.4, W: 0.1, H: 0.03}},
		{Text: "Ready", Confidence: 0.9, Box: model.Rect{X: 0.5, Y: 0.9, W: 0.2, H: 0.03}},
	}, Truncated: "line limit (300)"}
	want := []string{
		`snapshot s_0123456789ab: Notes (pid 501), window "Notes": 1 elements`,
		`e0 window "Notes"`,
		`text from pixels (OCR, may be wrong; boxes as fractions of the window): 2 lines, cut by the line limit (300)`,
		`  "Save" at 0.12,0.40 0.10x0.03`,
		`  "Ready" at 0.50,0.90 0.20x0.03`,
	}
	wantLines(t, insp, want)

	insp.RecognizedText = &model.RecognizedText{From: model.RecognizedFrom, Lines: []model.RecognizedLine{},
		Error: model.Errorf(model.CodeNotSupported, "Install Tesseract.", "no text recognition on this machine")}
	got := text(t, insp)
	if last := got[len(got)-1]; !strings.HasSuffix(last, ": 0 lines, none: NOT_SUPPORTED: no text recognition on this machine") {
		t.Fatalf("%q", last)
	}
}
