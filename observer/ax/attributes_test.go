package ax

import (
	"testing"

	"github.com/axbus/axbus/observer"
)

func TestAttributesNodeHidesSecureValue(t *testing.T) {
	a := Attributes{Role: "AXTextField", Subrole: "AXSecureTextField", Title: "Password", Value: "hunter2", HasValue: true}
	n := a.Node("r")
	if !n.Secure || n.Value != "" || n.HasValue || n.Text != "" {
		t.Fatalf("secure field leaked: %+v", n)
	}
	if s := n.Summary(); s.Value != "" {
		t.Fatalf("summary leaked %q", s.Value)
	}
}

func TestAttributesNodeStaticTextIsNamedByValue(t *testing.T) {
	a := Attributes{Role: "AXStaticText", Value: "Saved", HasValue: true}
	n := a.Node("r")
	if n.Role != observer.RoleText || n.Name != "Saved" || n.Text != "Saved" || n.HasValue {
		t.Fatalf("static text = %+v", n)
	}
}

func TestAttributesNodeDescriptionFallsBackToHelp(t *testing.T) {
	a := Attributes{Role: "AXButton", Help: "Saves the note"}
	if n := a.Node("r"); n.Description != "Saves the note" {
		t.Fatalf("description = %q", n.Description)
	}
	a.Description = "Save"
	if n := a.Node("r"); n.Description != "Save" {
		t.Fatalf("description = %q", n.Description)
	}
}

func TestAttributesStates(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		name string
		a    Attributes
		want observer.States
	}{
		{"checked box", Attributes{Role: "AXCheckBox", Value: "1", Enabled: true},
			observer.StateChecked | observer.StateEnabled},
		{"mixed box", Attributes{Role: "AXCheckBox", Value: "2"}, observer.StateMixed},
		{"editable field", Attributes{Role: "AXTextField", Settable: []string{"AXValue", "AXFocused"}, Focused: true},
			observer.StateEditable | observer.StateFocusable | observer.StateFocused},
		{"read-only area", Attributes{Role: "AXTextArea"}, observer.StateReadOnly | observer.StateMultiLine},
		{"selected row", Attributes{Role: "AXRow", Selected: true, Settable: []string{"AXSelected"}},
			observer.StateSelected | observer.StateSelectable},
		{"expanded row", Attributes{Role: "AXRow", Expanded: &yes}, observer.StateExpandable | observer.StateExpanded},
		{"collapsed row", Attributes{Role: "AXRow", Expanded: &no}, observer.StateExpandable},
		{"sheet", Attributes{Role: "AXSheet"}, observer.StateModal},
		{"modal dialog", Attributes{Role: "AXWindow", Subrole: "AXDialog", Modal: true}, observer.StateModal},
		{"button value 1", Attributes{Role: "AXButton", Value: "1"}, 0},
	} {
		if got := tc.a.Node("r").States; got != tc.want {
			t.Errorf("%s: states = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestAttributesNodeCountsChildren(t *testing.T) {
	a := Attributes{Role: "AXGroup", Children: []observer.NodeRef{"a", "b"}}
	if n := a.Node("g"); n.ChildCount != 2 || len(n.Children) != 2 {
		t.Fatalf("children = %v (%d)", n.Children, n.ChildCount)
	}
}
