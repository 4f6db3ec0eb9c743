package condition

import (
	"testing"

	"github.com/axbus/axbus/model"
)

// memoryView is a View held in memory.
type memoryView struct {
	elements []*model.Node
	windows  []model.Window
	focused  *model.Node
	targets  map[string]*model.Node
	visited  int // how many elements Elements offered
}

func (v *memoryView) Elements(fn func(*model.Node) bool) {
	for _, n := range v.elements {
		v.visited++
		if !fn(n) {
			return
		}
	}
}

func (v *memoryView) Windows() []model.Window           { return v.windows }
func (v *memoryView) Focused() *model.Node              { return v.focused }
func (v *memoryView) Element(target string) *model.Node { return v.targets[target] }

// notesView is a notes app showing "Saved" and a Save dialog.
func notesView() *memoryView {
	heading := &model.Node{Ref: "heading", Role: model.RoleHeading, Name: "Notes"}
	saved := &model.Node{Ref: "saved", Role: model.RoleText, Text: "Saved"}
	savedAgain := &model.Node{Ref: "saved2", Role: model.RoleLabel, Name: "Saved"}
	entry := &model.Node{Ref: "entry", Role: model.RoleTextField, Name: "Title", Value: "Groceries", HasValue: true,
		States: model.StateEditable | model.StateFocused | model.StateEnabled}
	pin := &model.Node{Ref: "pin", Role: model.RolePassword, Name: "PIN", Value: "1234", HasValue: true}
	remember := &model.Node{Ref: "remember", Role: model.RoleCheckbox, Name: "Remember me",
		States: model.StateChecked | model.StateEnabled}
	slider := &model.Node{Ref: "volume", Role: model.RoleSlider, Name: "Volume", Value: "42", HasValue: true}
	return &memoryView{
		elements: []*model.Node{heading, saved, savedAgain, entry, pin, remember, slider},
		windows: []model.Window{
			{ID: "w1", Title: "Notes — Groceries", Role: model.RoleWindow, Focused: true},
			{ID: "w2", Title: "Save changes?", Role: model.RoleDialog, Modal: true},
		},
		focused: entry,
		targets: map[string]*model.Node{"e3": entry, "e5": remember, "e6": slider},
	}
}

func TestHolds(t *testing.T) {
	for _, c := range []struct {
		compact string
		holds   bool
		element model.NodeRef // the element Holds returns, "" for none
		window  string        // the window Holds returns, "" for none
	}{
		{`text:"Saved"`, true, "saved", ""}, // the first in tree order
		{`text:"Saved" gone`, false, "", ""},
		{`text:"Deleted"`, false, "", ""},
		{`text:"Deleted" gone`, true, "", ""},
		{`text~grocer`, true, "entry", ""}, // a field's value is its text
		{`text:"1234"`, false, "", ""},     // a secure field shows nothing
		{`text:"1234" gone`, true, "", ""},
		{`element:role=checkbox,name="Remember me",state=checked`, true, "remember", ""},
		{`element:role=checkbox,state!=checked`, false, "", ""},
		{`element:role=checkbox,state!=checked gone`, true, "", ""},
		{`element:name=/^Row 35\d$/ gone`, true, "", ""},
		{`focused:role=text_field`, true, "entry", ""},
		{`focused:role=text_field,name=Title`, true, "entry", ""},
		{`focused:role=button`, false, "", ""},
		{`window`, true, "", "w1"},
		{`window:title~groceries`, true, "", "w1"},
		{`window:title~save`, true, "", "w2"}, // a dialog is a window too
		{`window:title~Report`, false, "", ""},
		{`window_gone:title~Report`, true, "", ""},
		{`window_gone:title~groceries`, false, "", ""},
		{`window_gone`, false, "", ""},
		{`dialog`, true, "", "w2"},
		{`dialog:title~save`, true, "", "w2"},
		{`dialog:title~groceries`, false, "", ""}, // not a dialog
		{`value:e6=42`, true, "volume", ""},
		{`value:e6~4`, true, "volume", ""},
		{`value:e6=43`, false, "", ""},
		{`value:e3=Groceries`, true, "entry", ""},
		{`value:e9=42`, false, "", ""}, // gone
		{`value:role=slider,name=Volume,value=42`, true, "volume", ""},
		{`value:role=slider,value=43`, false, "", ""},
		{`state:e5=checked`, true, "remember", ""},
		{`state:e5!=checked`, false, "", ""},
		{`state:e3!=checked`, true, "entry", ""},
		{`state:e9!=checked`, false, "", ""}, // a gone element lacks nothing
		{`state:role=checkbox,state=checked`, true, "remember", ""},
		{`text:"Saved" and dialog`, true, "saved", "w2"},
		{`dialog and text:"Saved"`, true, "saved", "w2"},
		{`text:"Saved" and window_gone`, false, "", ""},
		{`text:"Deleted" gone and dialog`, true, "", "w2"},
		{`text:"Deleted" or dialog`, true, "", "w2"},
		{`dialog or text:"Saved"`, true, "", "w2"}, // the first term that holds
		{`text:"Deleted" or window:title~Report`, false, "", ""},
		{`(text:"Deleted" or text:"Notes") and (focused:role=button or value:e6=42)`, true, "heading", ""},
	} {
		cond, err := ParseCompact(c.compact)
		if err != nil {
			t.Fatalf("%s: %v", c.compact, err)
		}
		ok, el, win := cond.Holds(notesView())
		var gotEl model.NodeRef
		if el != nil {
			gotEl = el.Ref
		}
		gotWin := ""
		if win != nil {
			gotWin = win.ID
		}
		if ok != c.holds || gotEl != c.element || gotWin != c.window {
			t.Errorf("%s: holds %v, element %q, window %q; want %v, %q, %q", c.compact, ok, gotEl, gotWin, c.holds, c.element, c.window)
		}
	}
}

// TestHoldsEmptyView: in a view of nothing (an app that ended), only what is gone holds.
func TestHoldsEmptyView(t *testing.T) {
	for compact, want := range map[string]bool{
		`text:"Saved" gone`: true, `element:role=button gone`: true, `window_gone`: true, `window_gone:title=Notes`: true,
		`text:"Saved"`: false, `window`: false, `dialog`: false, `focused:role=button`: false,
		`value:e1=1`: false, `state:e1!=checked`: false,
	} {
		cond, err := ParseCompact(compact)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _, _ := cond.Holds(&memoryView{}); ok != want {
			t.Errorf("%s: %v, want %v", compact, ok, want)
		}
	}
}

// TestHoldsStopsAtTheMatch: evaluation stops reading elements at the first match, and all stops
// at its first term that fails.
func TestHoldsStopsAtTheMatch(t *testing.T) {
	v := notesView()
	cond, _ := ParseCompact(`text:"Saved"`)
	cond.Holds(v)
	if v.visited != 2 {
		t.Fatalf("read %d elements, want 2", v.visited)
	}
	v.visited = 0
	cond, _ = ParseCompact(`window:title=Nothing and text:"Saved"`)
	if ok, _, _ := cond.Holds(v); ok || v.visited != 0 {
		t.Fatalf("holds %v after reading %d elements", ok, v.visited)
	}
}
