package sim

import (
	"context"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

func click(t *testing.T, d *Desktop, pid int, x, y float64) {
	t.Helper()
	if err := d.Input(context.Background(), observer.Input{Kind: observer.InputClick, PID: pid, X: x, Y: y}); err != nil {
		t.Fatal(err)
	}
}

func TestClickPressesTheElementThere(t *testing.T) {
	d, clock := fakeDemo(t)
	click(t, d, notesPID, 120, 90) // inside Save
	clock.Advance(200 * time.Millisecond)
	if _, ok := d.Peek(notesPID, "saved"); !ok {
		t.Fatal("the click did not press Save")
	}
	click(t, d, notesPID, 600, 200) // the sheet's OK button lies on top of the web area here
	clock.Advance(100 * time.Millisecond)
	if _, ok := d.Peek(notesPID, "save-sheet"); ok {
		t.Fatal("the click did not reach the sheet's OK button")
	}
	click(t, d, notesPID, 115, 200) // the checkbox
	if v := peek(t, d, notesPID, "remember").Value; v != "1" {
		t.Fatalf("checkbox = %q", v)
	}
	if in := d.Inputs(); len(in) != 3 || in[0].Kind != observer.InputClick || in[0].X != 120 {
		t.Fatalf("inputs = %+v", in)
	}
}

func TestClickSelectsRowAndRespectsClip(t *testing.T) {
	d, _ := fakeDemo(t)
	click(t, d, notesPID, 300, 254+2*24+5) // inside row 3's cell text area
	if !peek(t, d, notesPID, "row-3").States.Has(model.StateSelected) {
		t.Fatal("row 3 not selected")
	}
	// Row 17 lies at y 638: inside the window but below the scroll area, which clips it.
	click(t, d, notesPID, 300, 254+16*24+5)
	if peek(t, d, notesPID, "row-17").States.Has(model.StateSelected) || !peek(t, d, notesPID, "row-3").States.Has(model.StateSelected) {
		t.Fatal("a click hit a row that the scroll area clips")
	}
}

func TestTypeAppendsToFocusedField(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	if err := d.Input(ctx, observer.Input{Kind: observer.InputType, PID: notesPID, Text: " for Monday"}); err != nil {
		t.Fatal(err)
	}
	if v := peek(t, d, notesPID, "title").Value; v != "Shopping list for Monday" {
		t.Fatalf("title = %q", v)
	}
	if err := d.Input(ctx, observer.Input{Kind: observer.InputKey, PID: notesPID, Keys: "cmd+s"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Input(ctx, observer.Input{Kind: "wiggle", PID: notesPID}); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("unknown kind: %v", err)
	}
	if err := d.Input(ctx, observer.Input{Kind: observer.InputType, PID: 999}); model.CodeOf(err) != model.CodeAppNotFound {
		t.Fatalf("unknown pid: %v", err)
	}
	if in := d.Inputs(); len(in) != 4 || in[1].Keys != "cmd+s" {
		t.Fatalf("inputs = %+v", in)
	}
}

// AX actions are not physical input: a test can assert that a command stayed headless.
func TestAXCallsLeaveNoInput(t *testing.T) {
	d, _ := fakeDemo(t)
	_ = d.Perform(context.Background(), d.Ref(notesPID, "save"), "AXPress")
	_ = d.SetAttribute(context.Background(), d.Ref(notesPID, "title"), "AXValue", "x")
	if in := d.Inputs(); len(in) != 0 {
		t.Fatalf("inputs = %+v", in)
	}
}

// cmd+a selects all of the focused field's text: typing replaces it, BackSpace clears it, and
// any other key (or a click) ends the selection, so typing appends again.
func TestSelectAllThenType(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	input := func(in observer.Input) {
		t.Helper()
		in.PID = notesPID
		if err := d.Input(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	title := func() string { return peek(t, d, notesPID, "title").Value }
	input(observer.Input{Kind: observer.InputKey, Keys: "cmd+a"})
	input(observer.Input{Kind: observer.InputType, Text: "Groceries"})
	if title() != "Groceries" {
		t.Fatalf("after cmd+a and typing title = %q", title())
	}
	input(observer.Input{Kind: observer.InputType, Text: "!"})
	if title() != "Groceries!" {
		t.Fatalf("typing after the replacement: title = %q", title())
	}
	input(observer.Input{Kind: observer.InputKey, Keys: "cmd+a Right"})
	input(observer.Input{Kind: observer.InputType, Text: "?"})
	if title() != "Groceries!?" {
		t.Fatalf("a key after cmd+a kept the selection: title = %q", title())
	}
	input(observer.Input{Kind: observer.InputKey, Keys: "cmd+a BackSpace"})
	if title() != "" {
		t.Fatalf("cmd+a BackSpace: title = %q", title())
	}
	input(observer.Input{Kind: observer.InputType, Text: "a"})
	input(observer.Input{Kind: observer.InputKey, Keys: "cmd+a"})
	click(t, d, notesPID, 120, 140) // a click in the field places the caret
	input(observer.Input{Kind: observer.InputType, Text: "b"})
	if title() != "ab" {
		t.Fatalf("a click after cmd+a kept the selection: title = %q", title())
	}
}
