package ax

import (
	"testing"

	"github.com/axbus/axbus/model"
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
	if n.Role != model.RoleText || n.Name != "Saved" || n.Text != "Saved" || n.HasValue {
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
		want model.States
	}{
		{"checked box", Attributes{Role: "AXCheckBox", Value: "1", Enabled: true},
			model.StateChecked | model.StateEnabled},
		{"mixed box", Attributes{Role: "AXCheckBox", Value: "2"}, model.StateMixed},
		{"editable field", Attributes{Role: "AXTextField", Settable: []string{"AXValue", "AXFocused"}, Focused: true},
			model.StateEditable | model.StateFocusable | model.StateFocused},
		{"read-only area", Attributes{Role: "AXTextArea"}, model.StateReadOnly | model.StateMultiLine},
		{"selected row", Attributes{Role: "AXRow", Selected: true, Settable: []string{"AXSelected"}},
			model.StateSelected | model.StateSelectable},
		{"expanded row", Attributes{Role: "AXRow", Expanded: &yes}, model.StateExpandable | model.StateExpanded},
		{"collapsed row", Attributes{Role: "AXRow", Expanded: &no}, model.StateExpandable},
		{"sheet", Attributes{Role: "AXSheet"}, model.StateModal},
		{"modal dialog", Attributes{Role: "AXWindow", Subrole: "AXDialog", Modal: true}, model.StateModal},
		{"button value 1", Attributes{Role: "AXButton", Value: "1"}, 0},
	} {
		if got := tc.a.Node("r").States; got != tc.want {
			t.Errorf("%s: states = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestAttributesNodeCountsChildren(t *testing.T) {
	a := Attributes{Role: "AXGroup", Children: []model.NodeRef{"a", "b"}}
	if n := a.Node("g"); n.ChildCount != 2 || len(n.Children) != 2 {
		t.Fatalf("children = %v (%d)", n.Children, n.ChildCount)
	}
}
