package sim

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
)

func TestPressSaveOpensSheetAfter200ms(t *testing.T) {
	d, clock := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	if err := d.Perform(context.Background(), d.Ref(notesPID, "save"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(199 * time.Millisecond)
	if _, ok := d.Peek(notesPID, "saved"); ok {
		t.Fatal("Saved appeared before 200 ms")
	}
	clock.Advance(time.Millisecond)
	if n := peek(t, d, notesPID, "saved"); n.Name != "Saved" {
		t.Fatalf("saved = %+v", n)
	}
	created := rec.WaitFor(t, 0, 2*time.Second, "AXCreated", raw("AXCreated", "Saved"))
	if created.Type != model.EventChildrenChanged || created.App.PID != notesPID || created.App.Name != "Notes" ||
		created.App.ID != "com.example.notes" || created.Window == nil || created.Window.ID != "main" || created.Ref != d.Ref(notesPID, "saved") {
		t.Fatalf("created = %+v", created)
	}
	sheet := rec.WaitFor(t, 0, 2*time.Second, "AXSheetCreated", raw("AXSheetCreated", ""))
	if sheet.Type != model.EventDialogOpened || sheet.Element.Role != model.RoleSheet || sheet.Window.ID != "save-sheet" {
		t.Fatalf("sheet event = %+v", sheet)
	}
	if !sheet.Time.Equal(epoch.Add(200 * time.Millisecond)) {
		t.Fatalf("sheet event at %v", sheet.Time)
	}
	wins, err := d.Windows(context.Background(), notesPID)
	if err != nil {
		t.Fatal(err)
	}
	if len(wins) != 2 || wins[1].ID != "save-sheet" || wins[1].Role != model.RoleSheet || !wins[1].Modal || wins[1].Focused || !wins[0].Focused {
		t.Fatalf("windows = %+v", wins)
	}
	main := peek(t, d, notesPID, "main")
	if main.Children[len(main.Children)-1] != d.Ref(notesPID, "save-sheet") {
		t.Fatal("the sheet is not a child of its window")
	}

	// OK closes the sheet 100 ms later; a second Save press finds its work done.
	if err := d.Perform(context.Background(), d.Ref(notesPID, "save-sheet-ok"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(100 * time.Millisecond)
	closed := rec.WaitFor(t, 0, 2*time.Second, "sheet closed", raw("AXUIElementDestroyed", ""))
	if closed.Type != model.EventWindowClosed || closed.Window.ID != "save-sheet" {
		t.Fatalf("closed = %+v", closed)
	}
	if wins, _ := d.Windows(context.Background(), notesPID); len(wins) != 1 {
		t.Fatalf("windows after OK = %+v", wins)
	}
	if _, ok := d.Peek(notesPID, "save-sheet-ok"); ok {
		t.Fatal("the sheet's button outlived it")
	}
}

// The same reaction on the wall clock: the demo `make run` shows.
func TestPressSaveRealTime(t *testing.T) {
	d := loadFixture(t, "demo")
	rec := testkit.Record(t, d.Watch)
	start := time.Now()
	if err := d.Perform(context.Background(), d.Ref(notesPID, "save"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	rec.WaitFor(t, 0, 2*time.Second, "AXSheetCreated", raw("AXSheetCreated", ""))
	if took := time.Since(start); took < 200*time.Millisecond || took > 1500*time.Millisecond {
		t.Fatalf("sheet after %v", took)
	}
	if _, ok := d.Peek(notesPID, "saved"); !ok {
		t.Fatal("no Saved text")
	}
}

func TestCheckboxToggles(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	ref := d.Ref(notesPID, "remember")
	for i, want := range []string{"1", "0", "1"} {
		if err := d.Perform(context.Background(), ref, "AXPress"); err != nil {
			t.Fatal(err)
		}
		n := d.Read(context.Background(), []model.NodeRef{ref})[0]
		if n.Value != want || n.States.Has(model.StateChecked) != (want == "1") {
			t.Fatalf("press %d: value %q states %v", i+1, n.Value, n.States)
		}
	}
	rec.WaitFor(t, 0, 2*time.Second, "third value change", func(e model.Event) bool {
		return len(valueChanges(rec.Events(), "Remember me")) == 3
	})
	if got := valueChanges(rec.Events(), "Remember me"); got[0] != "1" || got[1] != "0" || got[2] != "1" {
		t.Fatalf("values in events = %v", got)
	}
}

func valueChanges(events []model.Event, name string) []string {
	var out []string
	for _, e := range events {
		if e.Type == model.EventValueChanged && e.Element.Name == name {
			out = append(out, e.Element.Value)
		}
	}
	return out
}

func TestSetValueAndSlider(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	rec := testkit.Record(t, d.Watch)
	title := d.Ref(notesPID, "title")
	if err := d.SetAttribute(ctx, title, "AXValue", "Groceries"); err != nil {
		t.Fatal(err)
	}
	if n := peek(t, d, notesPID, "title"); n.Value != "Groceries" {
		t.Fatalf("title = %q", n.Value)
	}
	rec.WaitFor(t, 0, 2*time.Second, "title value", func(e model.Event) bool {
		return e.Type == model.EventValueChanged && e.Element.Value == "Groceries"
	})
	vol := d.Ref(notesPID, "volume")
	for _, tc := range []struct {
		set  any
		want string
	}{{75.0, "75"}, {"20", "20"}, {150.0, "100"}, {-3.0, "0"}} {
		if err := d.SetAttribute(ctx, vol, "AXValue", tc.set); err != nil {
			t.Fatal(err)
		}
		if n := peek(t, d, notesPID, "volume"); n.Value != tc.want {
			t.Fatalf("set %v: volume %q, want %q", tc.set, n.Value, tc.want)
		}
	}
	if err := d.Perform(ctx, vol, "AXIncrement"); err != nil {
		t.Fatal(err)
	}
	if n := peek(t, d, notesPID, "volume"); n.Value != "10" {
		t.Fatalf("after increment volume %q", n.Value)
	}
	for _, bad := range []any{"loud", true, "NaN", "Inf", "-infinity", math.NaN(), math.Inf(1)} {
		if err := d.SetAttribute(ctx, vol, "AXValue", bad); model.CodeOf(err) != model.CodeBadRequest {
			t.Fatalf("set %v: %v", bad, err)
		}
	}
	if n := peek(t, d, notesPID, "volume"); n.Value != "10" {
		t.Fatalf("refused values changed the volume to %q", n.Value)
	}
}

func TestUnsupportedActionAndAttribute(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	err := d.Perform(ctx, d.Ref(notesPID, "save"), "AXIncrement")
	e := model.AsError(err)
	if e == nil || e.Code != model.CodeNotSupported || e.Suggestion == "" || e.Details["ax_error"] != -25206 {
		t.Fatalf("perform: %+v", e)
	}
	err = d.SetAttribute(ctx, d.Ref(notesPID, "save"), "AXValue", "x")
	if e = model.AsError(err); e == nil || e.Code != model.CodeNotSupported || e.Suggestion == "" {
		t.Fatalf("set: %+v", e)
	}
	if err := d.Perform(ctx, "501.1/gone", "AXPress"); model.CodeOf(err) != model.CodeElementNotFound {
		t.Fatalf("gone: %v", err)
	}
}

func TestDisabledElementRefusesAction(t *testing.T) {
	d, _ := fakeDemo(t)
	if err := d.SetEnabled(notesPID, "save", false); err != nil {
		t.Fatal(err)
	}
	rec := testkit.Record(t, d.Watch)
	if err := d.Perform(context.Background(), d.Ref(notesPID, "save"), "AXPress"); model.CodeOf(err) != model.CodeActionFailed {
		t.Fatalf("err = %v", err)
	}
	if n := peek(t, d, notesPID, "save"); n.States.Has(model.StateEnabled) {
		t.Fatal("save reads as enabled")
	}
	if len(rec.Events()) != 0 {
		t.Fatalf("events = %v", rawNames(rec.Events()))
	}
}

// A window ordered out is not listed and takes no click; its elements still answer.
func TestHiddenWindowIsNotListedButAnswers(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	if err := d.SetHidden(notesPID, "main", true); err != nil {
		t.Fatal(err)
	}
	if wins, err := d.Windows(ctx, notesPID); err != nil || len(wins) != 0 {
		t.Fatalf("windows of an app whose one window is hidden: %v %+v", err, wins)
	}
	if n := d.Read(ctx, []model.NodeRef{d.Ref(notesPID, "save")})[0]; n.Err != nil || n.Name != "Save" {
		t.Fatalf("read of a hidden window's button: %+v", n)
	}
	if path, err := d.HitPath(ctx, d.Ref(notesPID, "main"), 120, 90); err != nil || len(path) != 0 {
		t.Fatalf("hit path over a hidden window: %v %v", err, path)
	}
	if err := d.SetHidden(notesPID, "main", false); err != nil {
		t.Fatal(err)
	}
	if wins, _ := d.Windows(ctx, notesPID); len(wins) != 1 {
		t.Fatalf("shown again: windows %+v", wins)
	}
}

func TestFocusMovesWithAXFocused(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	ref := d.Ref(notesPID, "volume")
	if err := d.SetAttribute(context.Background(), ref, "AXFocused", true); err != nil {
		t.Fatal(err)
	}
	e := rec.WaitFor(t, 0, 2*time.Second, "focus", raw("AXFocusedUIElementChanged", "Volume"))
	if e.Type != model.EventFocusChanged || e.Ref != ref || !e.Element.States.Has(model.StateFocused) {
		t.Fatalf("event = %+v", e)
	}
	if peek(t, d, notesPID, "title").States.Has(model.StateFocused) {
		t.Fatal("the title field kept focus")
	}
	path, _ := d.FocusPath(context.Background(), notesPID)
	if path[len(path)-1] != ref {
		t.Fatalf("focus path %v", path)
	}
}

func TestSelectRowDeselectsOthers(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	ctx := context.Background()
	for _, id := range []string{"row-3", "row-5"} {
		if err := d.SetAttribute(ctx, d.Ref(notesPID, id), "AXSelected", true); err != nil {
			t.Fatal(err)
		}
	}
	if peek(t, d, notesPID, "row-3").States.Has(model.StateSelected) || !peek(t, d, notesPID, "row-5").States.Has(model.StateSelected) {
		t.Fatal("selection did not move to row 5")
	}
	e := rec.WaitFor(t, 0, 2*time.Second, "selection", raw("AXSelectedRowsChanged", ""))
	if e.Type != model.EventSelectionChanged || e.Element.Role != model.RoleTable {
		t.Fatalf("event = %+v", e)
	}
}

func TestScrollToVisibleBringsRowIntoView(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	if err := d.Perform(context.Background(), d.Ref(notesPID, "row-60"), "AXScrollToVisible"); err != nil {
		t.Fatal(err)
	}
	row := peek(t, d, notesPID, "row-60").Bounds
	area := peek(t, d, notesPID, "rows-scroll").Bounds
	if row.Y < area.Y || row.Y+row.H > area.Y+area.H {
		t.Fatalf("row 60 at %+v, outside %+v", row, area)
	}
	if bar := peek(t, d, notesPID, "rows-scrollbar").Bounds; bar.Y != 254 {
		t.Fatalf("the scroll bar moved to %v", bar.Y)
	}
	if text := peek(t, d, notesPID, "row-60-text").Bounds; text.Y != row.Y+4 {
		t.Fatal("the row's content did not move with it")
	}
	rec.WaitFor(t, 0, 2*time.Second, "layout", raw("AXLayoutChanged", ""))
	listed := names(inspectNotes(t, d))
	if !slices.Contains(listed, "Row 60") || slices.Contains(listed, "Row 1") {
		t.Fatalf("inspection after scrolling lists %v", listed)
	}
}

func TestComposeOpensAndClosesWindow(t *testing.T) {
	d, clock := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	ctx := context.Background()
	if err := d.Perform(ctx, d.Ref(mailPID, "compose"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(300 * time.Millisecond)
	created := rec.WaitFor(t, 0, 2*time.Second, "window created", raw("AXWindowCreated", "New Message"))
	if created.Type != model.EventWindowCreated || created.Window.ID != "compose-window" {
		t.Fatalf("created = %+v", created)
	}
	wins, _ := d.Windows(ctx, mailPID)
	if len(wins) != 2 || !wins[1].Focused || wins[0].Focused {
		t.Fatalf("windows = %+v", wins)
	}
	if path, _ := d.FocusPath(ctx, mailPID); len(path) != 2 || path[1] != d.Ref(mailPID, "compose-to") {
		t.Fatalf("focus path = %v", path)
	}
	if err := d.Perform(ctx, d.Ref(mailPID, "compose-send"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(100 * time.Millisecond)
	rec.WaitFor(t, 0, 2*time.Second, "window closed", func(e model.Event) bool { return e.Type == model.EventWindowClosed })
	wins, _ = d.Windows(ctx, mailPID)
	if len(wins) != 1 || !wins[0].Focused {
		t.Fatalf("windows = %+v", wins)
	}
}

// A table selects rows through AXSelectedRows: the handles of its rows, nothing else.
func TestSetSelectedRows(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	rows := d.Ref(notesPID, "rows")
	selected := func(id string) bool { return peek(t, d, notesPID, id).States.Has(model.StateSelected) }
	if err := d.SetAttribute(ctx, rows, "AXSelectedRows", []model.NodeRef{d.Ref(notesPID, "row-4")}); err != nil {
		t.Fatal(err)
	}
	if !selected("row-4") {
		t.Fatal("row 4 not selected")
	}
	if err := d.SetAttribute(ctx, rows, "AXSelectedRows", d.Ref(notesPID, "row-5")); err != nil {
		t.Fatal(err)
	}
	if !selected("row-5") || selected("row-4") {
		t.Fatalf("row 5 %v, row 4 %v: want row 5 alone", selected("row-5"), selected("row-4"))
	}
	for _, bad := range []any{
		[]model.NodeRef{d.Ref(notesPID, "title")},    // not a row of the table
		[]model.NodeRef{d.Ref(mailPID, "message-1")}, // another app's row
		"row-4",
		[]model.NodeRef{"junk"},
	} {
		if err := d.SetAttribute(ctx, rows, "AXSelectedRows", bad); model.CodeOf(err) != model.CodeBadRequest {
			t.Errorf("AXSelectedRows = %v: %v", bad, err)
		}
	}
	if err := d.SetAttribute(ctx, rows, "AXSelectedRows", []model.NodeRef{}); err != nil || selected("row-5") {
		t.Fatalf("an empty selection: %v, row 5 selected %v", err, selected("row-5"))
	}
	if err := d.SetAttribute(ctx, d.Ref(notesPID, "title"), "AXSelectedRows", []model.NodeRef{}); model.CodeOf(err) != model.CodeNotSupported {
		t.Fatalf("AXSelectedRows on a text field: %v", err)
	}
}
