package sim

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
)

func TestAppsAndWindows(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	apps, err := d.Apps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(apps) != 2 {
		t.Fatalf("apps = %+v", apps)
	}
	notes := apps[0]
	if notes.PID != notesPID || notes.Name != "Notes" || notes.ID != "com.example.notes" || notes.Toolkit != "AppKit" ||
		notes.Instance == "" || !notes.Active || apps[1].Active {
		t.Fatalf("notes = %+v, mail active %v", notes, apps[1].Active)
	}
	if d.Platform() != "sim" {
		t.Fatalf("platform %q", d.Platform())
	}
	wins, err := d.Windows(ctx, notesPID)
	if err != nil {
		t.Fatal(err)
	}
	if len(wins) != 1 || wins[0].ID != "main" || wins[0].Title != "Notes" || wins[0].Role != model.RoleWindow ||
		!wins[0].Focused || wins[0].Bounds == nil || wins[0].Bounds.W != 900 || wins[0].Ref == "" {
		t.Fatalf("windows = %+v", wins)
	}
	if _, err := d.Windows(ctx, 999); model.CodeOf(err) != model.CodeAppNotFound {
		t.Fatalf("unknown pid: %v", err)
	}
}

func TestReadNodes(t *testing.T) {
	d, _ := fakeDemo(t)
	refs := []model.NodeRef{d.Ref(notesPID, "save"), d.Ref(notesPID, "title"), d.Ref(notesPID, "remember"),
		d.Ref(notesPID, "volume"), d.Ref(notesPID, "row-2-text"), "501.1/nope", "garbage"}
	nodes := d.Read(context.Background(), refs)
	if len(nodes) != len(refs) {
		t.Fatalf("%d nodes for %d refs", len(nodes), len(refs))
	}
	save, title, box, vol, text := nodes[0], nodes[1], nodes[2], nodes[3], nodes[4]
	if save.Role != model.RoleButton || save.Name != "Save" || save.Description != "Save the note" ||
		save.Identifier != "saveButton" || save.Ref != refs[0] || save.Bounds == nil || save.Bounds.X != 110 ||
		!save.States.Has(model.StateEnabled) || strings.Join(save.Actions, ",") != "AXPress" {
		t.Errorf("save = %+v", save)
	}
	if title.Value != "Shopping list" || !title.HasValue || !title.States.Has(model.StateFocused|model.StateEditable) {
		t.Errorf("title = %+v", title)
	}
	if box.Role != model.RoleCheckbox || box.Value != "0" || box.States.Has(model.StateChecked) {
		t.Errorf("checkbox = %+v", box)
	}
	if vol.Role != model.RoleSlider || vol.Value != "50" {
		t.Errorf("slider = %+v", vol)
	}
	if text.Role != model.RoleText || text.Name != "Row 2" || text.Text != "Row 2" {
		t.Errorf("row text = %+v", text)
	}
	if model.CodeOf(nodes[5].Err) != model.CodeElementNotFound {
		t.Errorf("missing node err = %v", nodes[5].Err)
	}
	if model.CodeOf(nodes[6].Err) != model.CodeBadRequest || nodes[6].Ref != "garbage" {
		t.Errorf("bad ref = %+v", nodes[6])
	}
	table := peek(t, d, notesPID, "rows")
	if table.ChildCount != 400 || len(table.Children) != 400 || table.Children[349] != d.Ref(notesPID, "row-350") {
		t.Errorf("table has %d children", table.ChildCount)
	}
	row := peek(t, d, notesPID, "row-400")
	if row.Bounds.Y != 254+399*24 {
		t.Errorf("row 400 at y %v", row.Bounds.Y)
	}
}

func TestReadErrorsCarrySuggestions(t *testing.T) {
	d, _ := fakeDemo(t)
	nodes := d.Read(context.Background(), []model.NodeRef{"501.1/nope"})
	var e *model.Error
	if e = model.AsError(nodes[0].Err); e.Suggestion == "" || e.Details["pid"] != notesPID {
		t.Fatalf("error = %+v", e)
	}
}

func TestSecureValueIsNeverRead(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	ref := d.Ref(notesPID, "password")
	n := d.Read(context.Background(), []model.NodeRef{ref})[0]
	if !n.Secure || n.HasValue || n.Value != "" || n.Text != "" || n.Role != model.RolePassword {
		t.Fatalf("password read as %+v", n)
	}
	if err := d.SetAttribute(context.Background(), ref, "AXValue", "new-secret-value"); err != nil {
		t.Fatal(err)
	}
	if err := d.Input(context.Background(), observer.Input{Kind: observer.InputClick, PID: notesPID, X: 120, Y: 170}); err != nil {
		t.Fatal(err)
	}
	if err := d.Input(context.Background(), observer.Input{Kind: observer.InputType, PID: notesPID, Text: "-typed"}); err != nil {
		t.Fatal(err)
	}
	rec.WaitFor(t, 0, 2*time.Second, "password value change", func(e model.Event) bool {
		return e.Type == model.EventValueChanged && e.Element != nil && e.Element.Name == "Password" && e.Ref == ref
	})
	for _, e := range rec.Events() {
		for _, secret := range []string{"correct-horse", "new-secret", "typed"} {
			if e.Element != nil && strings.Contains(e.Element.Value+e.Element.Name, secret) {
				t.Fatalf("event %s leaks the secret: %+v", e.Raw, e.Element)
			}
		}
	}
	if n := peek(t, d, notesPID, "password"); n.Value != "" || n.HasValue {
		t.Fatalf("peek leaks %q", n.Value)
	}
}

func TestFocusPath(t *testing.T) {
	d, _ := fakeDemo(t)
	ctx := context.Background()
	path, err := d.FocusPath(ctx, notesPID)
	if err != nil {
		t.Fatal(err)
	}
	if len(path) != 2 || path[0] != d.Ref(notesPID, "main") || path[1] != d.Ref(notesPID, "title") {
		t.Fatalf("path = %v", path)
	}
	if err := d.SetFocus(notesPID, "row-350"); err != nil {
		t.Fatal(err)
	}
	path, _ = d.FocusPath(ctx, notesPID)
	want := []model.NodeRef{d.Ref(notesPID, "main"), d.Ref(notesPID, "rows-scroll"), d.Ref(notesPID, "rows"), d.Ref(notesPID, "row-350")}
	if strings.Join(refStrings(path), " ") != strings.Join(refStrings(want), " ") {
		t.Fatalf("path = %v, want %v", path, want)
	}
	if path, err := d.FocusPath(ctx, mailPID); err != nil || path != nil {
		t.Fatalf("mail focus path = %v, %v", path, err)
	}
}

func refStrings(refs []model.NodeRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = string(r)
	}
	return out
}

func TestLargeFixtureHas4000Elements(t *testing.T) {
	d := loadFixture(t, "large", WithClock(NewFakeClock(epoch)))
	walk := observer.Walk(context.Background(), d, d.Ref(601, "ledger"), observer.WalkOptions{Budget: model.WideBudget()})
	if len(walk.Nodes) != 4000 || len(walk.Truncation) != 0 || walk.Incomplete {
		t.Fatalf("walked %d, truncation %v, incomplete %v", len(walk.Nodes), walk.Truncation, walk.Incomplete)
	}
	last := walk.Nodes[len(walk.Nodes)-1]
	if last.Name != "" || last.Role != model.RoleScrollBar {
		t.Fatalf("last = %+v", last.Node)
	}
}
