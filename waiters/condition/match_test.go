package condition

import (
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

// TestStringMatchRules: the case rules, trimming, regex anchoring and case folding.
func TestStringMatchRules(t *testing.T) {
	insensitive := func(m *StringMatch) *StringMatch { m.Case = CaseInsensitive; return m }
	sensitive := func(m *StringMatch) *StringMatch { m.Case = CaseSensitive; return m }
	for _, c := range []struct {
		m    *StringMatch
		s    string
		want bool
	}{
		// exact: the whole string, case respected, surrounding whitespace ignored on both sides
		{Exact("Saved"), "Saved", true},
		{Exact("Saved"), "  Saved\n", true},
		{Exact(" Saved "), "Saved", true},
		{Exact("Saved"), "saved", false},
		{Exact("Saved"), "Saved at 10:02", false},
		{Exact("Saved at"), "Saved  at", false},
		{insensitive(Exact("saved")), "SAVED", true},
		{Exact(""), "", true},
		{Exact(""), " \t", true},
		{Exact(""), "x", false},
		// contains: a substring, case ignored unless asked
		{Contains("save"), "Not Saved yet", true},
		{Contains("SAVE"), "not saved", true},
		{sensitive(Contains("save")), "Saved", false},
		{sensitive(Contains("Save")), "Saved", true},
		{Contains("Saved "), "Saved", false}, // the element's string is trimmed, the wanted one is not
		{Contains(" at "), "Saved at 5", true},
		// case folding: simple Unicode mappings
		{Contains("σ"), "ΟΔΟΣ", true},
		{insensitive(Exact("οδος")), "ΟΔΟΣ", true},
		{insensitive(Exact("οδοσ")), "οδος", true}, // final sigma
		{Contains("k"), "\u212a", true},            // Kelvin sign
		{Contains("straße"), "STRASSE", false},     // not full folding
		{Contains("Save"), "NOT SAVED", true},      // ASCII, compared in place
		{Contains("é"), "CAFÉ", true},
		{insensitive(Exact("SAVED")), " saved ", true},
		{insensitive(Exact("Saved")), "saved!", false},
		{insensitive(Exact("k")), "\u212a", true},
		// regex: RE2, unanchored unless it says so, case respected unless asked
		{Regex("Saved"), "Not Saved yet", true},
		{Regex("^Saved$"), "Not Saved yet", false},
		{Regex("^Saved$"), "Saved\n", true},
		{Regex("^Saved( at .*)?$"), "Saved at 10:02", true},
		{Regex("^saved$"), "Saved", false},
		{insensitive(Regex("^saved$")), "Saved", true},
		{Regex("(?i)^saved$"), "Saved", true},
		{Regex(`^Row 35\d$`), "Row 357", true},
		{Regex(`^Row 35\d$`), "Row 3571", false},
	} {
		if got := c.m.matches(c.s); got != c.want {
			t.Errorf("%s %q (case %q) on %q: %v, want %v", c.m.Op, c.m.Value, c.m.Case, c.s, got, c.want)
		}
		if f := c.m.check(); f != nil { // prepared, it answers the same
			t.Fatalf("%+v: %s", c.m, f.what)
		}
		if got := c.m.matches(c.s); got != c.want {
			t.Errorf("prepared %s %q on %q: %v, want %v", c.m.Op, c.m.Value, c.s, got, c.want)
		}
	}
	if Regex("(").matches("(") {
		t.Error("an unvalidated bad regex matched")
	}
}

// TestASCIIFoldAgrees: comparing ASCII in place gives what folding both strings gives.
func TestASCIIFoldAgrees(t *testing.T) {
	words := []string{"", "a", "A", "Saved", "SAVED", "saved at", "Save As", "[Save]", "@_^`{", "zZ", "Row 35"}
	for _, s := range words {
		for _, w := range words {
			want := strings.Contains(foldCase(s), foldCase(w))
			if got := containsASCIIFold(s, foldCase(w)); got != want {
				t.Errorf("%q contains %q: %v, want %v", s, w, got, want)
			}
		}
	}
}

// TestMatchesElement: the element fields, text and value tests, states, and secure fields.
func TestMatchesElement(t *testing.T) {
	button := &model.Node{Role: model.RoleButton, PlatformRole: "AXButton", Name: "Save", Identifier: "save-btn",
		Description: "Saves the note", States: model.StateEnabled | model.StateFocusable}
	search := &model.Node{Role: model.RoleTextField, PlatformRole: "AXTextField", Subrole: "AXSearchField",
		Label: "Search", Value: "kittens", HasValue: true, States: model.StateEditable | model.StateFocused}
	password := &model.Node{Role: model.RolePassword, Name: "Password", Value: "hunter2", HasValue: true}
	secure := &model.Node{Role: model.RoleTextField, Name: "PIN", Value: "1234", HasValue: true, Secure: true}
	status := &model.Node{Role: model.RoleText, Name: "status", Text: "Saved"}
	slider := &model.Node{Role: model.RoleSlider, PlatformRole: "slider", Name: "Volume", Value: "42", HasValue: true}
	editable := &model.Node{Role: model.RoleParagraph, Value: "draft", HasValue: true, States: model.StateEditable}
	checkbox := &model.Node{Role: model.RoleCheckbox, PlatformRole: "check box", Name: "Remember me",
		States: model.StateChecked | model.StateEnabled}

	for _, c := range []struct {
		compact string
		node    *model.Node
		want    bool
	}{
		{`element:role=button`, button, true},
		{`element:role=AXButton`, button, true},
		{`element:role=axbutton`, button, true},
		{`element:role="check box"`, checkbox, true},
		{`element:role=AXSearchField`, search, true}, // the AX subrole
		{`element:role=text_field`, search, true},
		{`element:role=checkbox`, button, false},
		{`element:name=Save`, button, true},
		{`element:name=Search`, search, true}, // no name: the label stands for it
		{`element:label=Search`, search, true},
		{`element:label=Save`, button, false},
		{`element:description~saves`, button, true},
		{`element:identifier=save-btn`, button, true},
		{`element:identifier=save`, button, false},
		{`element:value=kittens`, search, true},
		{`element:value=""`, button, false}, // no value at all
		{`element:value=42,role=slider`, slider, true},
		{`element:text=Saved`, status, true},
		{`element:text=status`, status, false}, // its text, not its name
		{`element:text=Save`, button, true},    // no text: its name
		{`element:text=Search`, search, true},  // no text, no name: its label
		{`element:text=kittens`, search, true}, // a field shows its value
		{`element:text=42`, slider, false},     // a slider does not show its value as text
		{`element:text=draft`, editable, true}, // an editable element does
		{`element:state=enabled,state=focusable`, button, true},
		{`element:state=enabled,state=focused`, button, false},
		{`element:state!=focused`, button, true},
		{`element:state!=enabled`, button, false},
		{`element:name=Password`, password, true}, // a secure field's name is no secret
		{`element:name=PIN,role=text_field`, secure, true},
		{`element:value=hunter2`, password, false},
		{`element:value=1234`, secure, false},
		{`element:value=""`, secure, false},
		{`element:text=Password`, password, false},
		{`element:text=PIN`, secure, false},
		{`text:"Saved"`, status, true},
		{`text~save`, button, true},
		{`text:"1234"`, secure, false},
		{`focused:role=text_field`, search, true},
		{`value:e1=42`, slider, true},
		{`value:e1~4`, slider, true},
		{`value:e1=4`, slider, false},
		{`value:e1=1234`, secure, false},
		{`value:role=slider,value=42`, slider, true},
		{`value:role=slider,value=42`, search, false},
		{`state:e1=checked`, checkbox, true},
		{`state:e1!=checked`, checkbox, false},
		{`state:e1!=checked`, button, true},
		{`state:name~remember,state=checked`, checkbox, true},
		{`state:name~remember,state=checked`, button, false},
		{`window`, button, false},
		{`text:"Save" and element:role=button`, button, false}, // all and any test no element themselves
	} {
		cond, err := ParseCompact(c.compact)
		if err != nil {
			t.Fatalf("%s: %v", c.compact, err)
		}
		if got := cond.MatchesElement(c.node); got != c.want {
			t.Errorf("%s on %s %q: %v, want %v", c.compact, c.node.Role, c.node.Name, got, c.want)
		}
	}
}

// TestMatchesElementUnvalidated: a condition built by hand matches the same before Validate,
// only slower.
func TestMatchesElementUnvalidated(t *testing.T) {
	n := &model.Node{Role: model.RoleCheckbox, Name: "Remember me", States: model.StateChecked}
	c := &Condition{Kind: KindElement, Name: Regex("^Remember"), States: []string{"checked"}, NotStates: []string{"busy"}}
	off := &Condition{Kind: KindState, Name: Contains("remember"), State: "checked", Off: true}
	if !c.MatchesElement(n) || off.MatchesElement(n) {
		t.Fatal("unvalidated conditions match differently")
	}
}
