package commands

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
)

// The macOS chains (package ax), walked by the executor on the simulated desktop, which is
// macOS-shaped: each action on the elements it is made for, and the step that did it.

var epoch = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// fakeDemo is the demo desktop on a clock that moves only when told.
func fakeDemo(t *testing.T) (*sim.Desktop, *sim.FakeClock) {
	t.Helper()
	clock := sim.NewFakeClock(epoch)
	d, err := sim.Fixture("demo", sim.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d, clock
}

// chainT walks the desktop's chain for action on the element the sim calls id, as an action
// whose target resolved to it would, and returns the step that did it.
func chainT(t *testing.T, d *sim.Desktop, action, id, value string, physical bool) (string, error) {
	t.Helper()
	chain, ok := d.Chains()[action]
	if !ok {
		t.Fatalf("no chain for %s", action)
	}
	tgt := &target{app: model.App{PID: notes}, ref: d.Ref(notes, id)}
	if tgt.ref == "" {
		t.Fatalf("no element %q", id)
	}
	ctx := context.Background()
	tgt.node = d.Read(ctx, []model.NodeRef{tgt.ref})[0]
	r := &run{name: action, b: d, chain: chain, t: tgt, action: value, value: value, physical: physical}
	if action == "check" || action == "uncheck" {
		want := action == "check"
		r.want = &want
	}
	if err := r.exec(ctx); err != nil {
		return "", err
	}
	if !r.done {
		return "", model.Errorf(model.CodeActionFailed, chain.Suggestion, "no step worked: %+v", r.trace)
	}
	return r.step, nil
}

func mustChain(t *testing.T, d *sim.Desktop, action, id, value, wantStep string) {
	t.Helper()
	step, err := chainT(t, d, action, id, value, false)
	if err != nil {
		t.Fatalf("%s on %s: %v", action, id, err)
	}
	if step != wantStep {
		t.Fatalf("%s on %s worked by %q, want %q", action, id, step, wantStep)
	}
}

func noInput(t *testing.T, d *sim.Desktop) {
	t.Helper()
	if in := d.Inputs(); len(in) != 0 {
		t.Fatalf("physical input without the physical policy: %+v", in)
	}
}

func peek(t *testing.T, d *sim.Desktop, pid int, id string) model.Node {
	t.Helper()
	n, ok := d.Peek(pid, id)
	if !ok {
		t.Fatalf("no element %q in pid %d", id, pid)
	}
	return n
}

func TestChainClick(t *testing.T) {
	d, clock := fakeDemo(t)
	mustChain(t, d, "click", "save", "", "perform AXPress")
	clock.Advance(200 * time.Millisecond)
	if _, ok := d.Peek(notes, "saved"); !ok {
		t.Fatal("click on Save did not save")
	}
	// A row's text: no action anywhere, its row is selected through AXSelected.
	mustChain(t, d, "click", "row-3-text", "", "custom select via parent")
	if !peek(t, d, notes, "row-3").States.Has(model.StateSelected) {
		t.Fatal("row 3 not selected")
	}
	// A plain text: nothing but a physical click, only when asked for.
	if _, err := chainT(t, d, "click", "clock", "", false); err == nil {
		t.Fatal("click on a static text worked without physical input")
	}
	noInput(t, d)
	if step, err := chainT(t, d, "click", "clock", "", true); err != nil || step != "physical click" {
		t.Fatalf("physical click: %q %v", step, err)
	}
	if in := d.Inputs(); len(in) != 1 || in[0].Kind != observer.InputClick || in[0].X != 260 || in[0].Y != 830 || in[0].PID != notes {
		t.Fatalf("inputs = %+v", in)
	}
}

func TestChainSetValueAndType(t *testing.T) {
	d, _ := fakeDemo(t)
	mustChain(t, d, "set_value", "title", "Groceries", "set_attr AXValue")
	if v := peek(t, d, notes, "title").Value; v != "Groceries" {
		t.Fatalf("title = %q", v)
	}
	mustChain(t, d, "set_value", "volume", "70", "set_attr AXValue")
	if v := peek(t, d, notes, "volume").Value; v != "70" {
		t.Fatalf("volume = %q", v)
	}
	mustChain(t, d, "type", "title", " for Monday", "custom append to AXValue")
	if v := peek(t, d, notes, "title").Value; v != "Groceries for Monday" {
		t.Fatalf("title = %q", v)
	}
	// A password's value is never read: type falls to physical input, or fails without it.
	if _, err := chainT(t, d, "type", "password", "x", false); err == nil {
		t.Fatal("type into a password field worked without physical input")
	}
	noInput(t, d)
	if step, err := chainT(t, d, "type", "password", "x", true); err != nil || step != "physical focus, cmd+down, type" {
		t.Fatalf("physical type into the password: %q %v", step, err)
	}
	kinds := func() []observer.InputKind {
		var k []observer.InputKind
		for _, in := range d.Inputs() {
			k = append(k, in.Kind)
		}
		return k
	}
	// Focused through AXFocused: no click, the pointer stays.
	if k := kinds(); !slices.Equal(k, []observer.InputKind{observer.InputKey, observer.InputType}) {
		t.Fatalf("inputs = %v", k)
	}
	if n := peek(t, d, notes, "password"); !n.States.Has(model.StateFocused) {
		t.Fatal("the focus request did not focus the password field")
	}
	// Where the app refuses the focus request, a click focuses the field.
	if err := d.InjectFault(notes, sim.Fault{Kind: sim.FaultTransient, Element: "password", Action: "AXFocused"}); err != nil {
		t.Fatal(err)
	}
	before := len(d.Inputs())
	if step, err := chainT(t, d, "type", "password", "!", true); err != nil || step != "physical focus, cmd+down, type" {
		t.Fatalf("physical type again: %q %v", step, err)
	}
	if k := kinds()[before:]; !slices.Equal(k, []observer.InputKind{observer.InputClick, observer.InputKey, observer.InputType}) {
		t.Fatalf("inputs after a refused focus = %v", k)
	}
}

// When the app refuses AXValue, set_value falls to clicking the field, selecting all and typing
// over it.
func TestChainSetValuePhysical(t *testing.T) {
	d, _ := fakeDemo(t)
	if err := d.InjectFault(notes, sim.Fault{Kind: sim.FaultTransient, Element: "title", Action: "AXValue"}); err != nil {
		t.Fatal(err)
	}
	if _, err := chainT(t, d, "set_value", "title", "Groceries", false); err == nil {
		t.Fatal("set_value worked although AXValue fails")
	}
	noInput(t, d)
	if step, err := chainT(t, d, "set_value", "title", "Groceries", true); err != nil || step != "physical focus, cmd+a, type" {
		t.Fatalf("physical set_value: %q %v", step, err)
	}
	if v := peek(t, d, notes, "title").Value; v != "Groceries" {
		t.Fatalf("title = %q, want the typed text in place of the old", v)
	}
}

func TestChainToggleCheck(t *testing.T) {
	d, _ := fakeDemo(t)
	value := func() string { return peek(t, d, notes, "remember").Value }
	mustChain(t, d, "toggle", "remember", "", "perform AXPress")
	if value() != "1" {
		t.Fatalf("after toggle remember = %q", value())
	}
	mustChain(t, d, "toggle", "remember", "", "perform AXPress")
	if value() != "0" {
		t.Fatalf("after a second toggle remember = %q", value())
	}
	mustChain(t, d, "check", "remember", "", "perform AXPress")
	mustChain(t, d, "check", "remember", "", "already checked") // checked already: nothing is pressed
	if value() != "1" {
		t.Fatalf("after check, check: remember = %q", value())
	}
	mustChain(t, d, "uncheck", "remember", "", "perform AXPress")
	if value() != "0" {
		t.Fatalf("after uncheck remember = %q", value())
	}
	noInput(t, d)
}

func TestChainSelectFocusScroll(t *testing.T) {
	d, _ := fakeDemo(t)
	mustChain(t, d, "select", "row-7", "", "set_attr AXSelected")
	if !peek(t, d, notes, "row-7").States.Has(model.StateSelected) {
		t.Fatal("row 7 not selected")
	}
	if err := d.SetFocus(notes, "save"); err != nil {
		t.Fatal(err)
	}
	mustChain(t, d, "focus", "title", "", "set_attr AXFocused")
	if !peek(t, d, notes, "title").States.Has(model.StateFocused) {
		t.Fatal("title not focused")
	}
	mustChain(t, d, "focus", "title", "", "already focused")
	// A row takes no focus: selecting it is no proof of focus.
	if _, err := chainT(t, d, "focus", "row-9", "", false); err == nil {
		t.Fatal("focus on a row worked")
	}

	// Row 300 lies far below the scroll area: AXScrollToVisible brings it in.
	mustChain(t, d, "scroll_to", "row-300", "", "perform AXScrollToVisible")
	area, row := *peek(t, d, notes, "rows-scroll").Bounds, *peek(t, d, notes, "row-300").Bounds
	if row.Y < area.Y || row.Y+row.H > area.Y+area.H {
		t.Fatalf("row 300 at %+v, outside the scroll area %+v", row, area)
	}
	// Save is in no scroll area and offers no AXScrollToVisible: it is in view already.
	mustChain(t, d, "scroll_to", "save", "", "custom visible in scroll context")
	noInput(t, d)
}

func TestChainPressAndKey(t *testing.T) {
	d, _ := fakeDemo(t)
	mustChain(t, d, "press", "volume", "AXIncrement", "perform \x00dynamic")
	if v := peek(t, d, notes, "volume").Value; v != "60" {
		t.Fatalf("volume = %q", v)
	}
	if _, err := chainT(t, d, "press", "volume", "AXFrobnicate", false); err == nil {
		t.Fatal("an unknown action worked")
	}
	if _, err := chainT(t, d, "key", "title", "cmd+s", false); err == nil {
		t.Fatal("key worked without physical input")
	}
	noInput(t, d)
	if step, err := chainT(t, d, "key", "title", "cmd+s", true); err != nil || step != "physical key" {
		t.Fatalf("key: %q %v", step, err)
	}
	if in := d.Inputs(); len(in) != 1 || in[0].Keys != "cmd+s" || in[0].PID != notes {
		t.Fatalf("inputs = %+v", in)
	}
}

// The steps the demo never reaches, on a desktop made for them: a table whose rows select only
// through the table's AXSelectedRows, hover-only UI behind AXShowAlternateUI, elements that
// expand by AXExpand, by AXDisclosing and by AXExpanded, an element clipped by its scroll area.
func TestChainRareSteps(t *testing.T) {
	spec, err := sim.Parse("chains.json", []byte(`{"apps": [{"name": "Finder", "pid": 501, "windows": [
	  {"id": "w", "role": "AXWindow", "frame": [0, 0, 800, 600], "children": [
	    {"id": "table", "role": "AXTable", "frame": [0, 0, 400, 100], "children": [
	      {"id": "r1", "role": "AXRow", "settable": [], "frame": [0, 0, 400, 20],
	       "children": [{"id": "r1-text", "role": "AXStaticText", "value": "One", "frame": [0, 0, 100, 20]}]},
	      {"id": "r2", "role": "AXRow", "settable": [], "frame": [0, 20, 400, 20],
	       "children": [{"id": "r2-text", "role": "AXStaticText", "value": "Two", "frame": [0, 20, 100, 20]}]}
	    ]},
	    {"id": "disk", "role": "AXGroup", "actions": ["AXShowAlternateUI"], "frame": [0, 120, 200, 20]},
	    {"id": "menu", "role": "AXGroup", "actions": ["AXExpand", "AXCollapse"], "expanded": false, "frame": [0, 150, 100, 20]},
	    {"id": "outline", "role": "AXOutline", "frame": [0, 180, 400, 40], "children": [
	      {"id": "folder", "role": "AXRow", "expanded": false, "frame": [0, 180, 400, 20]}
	    ]},
	    {"id": "combo", "role": "AXComboBox", "expanded": false, "frame": [0, 230, 200, 20]},
	    {"id": "scroll", "role": "AXScrollArea", "frame": [0, 300, 400, 100], "children": [
	      {"id": "far", "role": "AXStaticText", "value": "Far", "actions": [], "frame": [0, 900, 100, 20]}
	    ]}
	  ]}],
	  "reactions": [{"on": {"element": "disk", "action": "AXShowAlternateUI"}, "do": [
	    {"add": {"id": "eject", "role": "AXButton", "title": "Eject", "frame": [180, 120, 20, 20]}, "to": "disk"}]},
	    {"on": {"element": "eject", "action": "AXPress"}, "do": [{"remove": "disk"}]}]
	}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d, err := sim.New(spec, sim.WithClock(sim.NewFakeClock(epoch)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	selected := func(id string) bool { return peek(t, d, notes, id).States.Has(model.StateSelected) }

	mustChain(t, d, "select", "r2", "", "custom select via parent")
	mustChain(t, d, "click", "r1-text", "", "custom select via parent")
	if !selected("r1") || selected("r2") {
		t.Fatalf("selection: r1 %v r2 %v, want r1 alone", selected("r1"), selected("r2"))
	}

	mustChain(t, d, "click", "disk", "", "custom show alternate UI")
	if _, ok := d.Peek(notes, "disk"); ok {
		t.Fatal("the alternate UI's Eject button was not pressed")
	}

	expanded := func(id string) bool { return peek(t, d, notes, id).States.Has(model.StateExpanded) }
	for _, tc := range []struct{ id, expand, collapse string }{
		{"menu", "perform AXExpand", "perform AXCollapse"},
		{"folder", "set_attr AXDisclosing", "set_attr AXDisclosing"},
		{"combo", "set_attr AXExpanded", "set_attr AXExpanded"},
	} {
		mustChain(t, d, "expand", tc.id, "", tc.expand)
		if !expanded(tc.id) {
			t.Fatalf("%s not expanded", tc.id)
		}
		mustChain(t, d, "expand", tc.id, "", "already expanded")
		mustChain(t, d, "collapse", tc.id, "", tc.collapse)
		if expanded(tc.id) {
			t.Fatalf("%s still expanded", tc.id)
		}
	}

	if _, err := chainT(t, d, "scroll_to", "far", "", true); err == nil {
		t.Fatal("scroll_to claimed a clipped element that nothing scrolled")
	}
	noInput(t, d)
}

// A press that fails, then a confirm that works: the click chain goes on to AXConfirm, and the
// trace shows the failed press (retried once: the error is transient) before it.
func TestChainPressFailsConfirmWorks(t *testing.T) {
	spec, err := sim.Parse("confirm.json", []byte(`{"apps": [{"name": "Form", "pid": 501, "windows": [
	  {"id": "w", "role": "AXWindow", "title": "Form", "frame": [0, 0, 400, 300], "children": [
	    {"id": "go", "role": "AXButton", "title": "Go", "actions": ["AXPress", "AXConfirm"], "frame": [10, 10, 80, 30]}
	  ]}],
	  "faults": [{"kind": "transient", "element": "go", "action": "AXPress"}],
	  "reactions": [{"on": {"element": "go", "action": "AXConfirm"}, "do": [
	    {"add": {"id": "done", "role": "AXStaticText", "value": "Confirmed", "frame": [10, 50, 80, 20]}, "to": "w"}]}]
	}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d, err := sim.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	chain := d.Chains()["click"]
	tgt := &target{app: model.App{PID: notes}, ref: d.Ref(notes, "go")}
	tgt.node = d.Read(context.Background(), []model.NodeRef{tgt.ref})[0]
	r := &run{name: "click", b: d, chain: chain, t: tgt}
	if err := r.exec(context.Background()); err != nil || !r.done || r.step != "perform AXConfirm" {
		t.Fatalf("click: done %v by %q, %v; trace %+v", r.done, r.step, err, r.trace)
	}
	if first := r.trace[0]; first.Step != "perform AXPress" || first.Result != string(model.CodeTransient) || !first.Retried {
		t.Fatalf("the failed press is not traced first: %+v", r.trace)
	}
	if _, ok := d.Peek(notes, "done"); !ok {
		t.Fatal("the confirm did not take effect")
	}
}
