package sim

import (
	"context"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
)

func TestControlsMutateWithNotifications(t *testing.T) {
	d, _ := fakeDemo(t)
	rec := testkit.Record(t, d.Watch)
	if err := d.AddNode(notesPID, "toolbar", NodeSpec{ID: "share", Role: "AXButton", Title: "Share", Frame: []float64{250, 84, 64, 28}}); err != nil {
		t.Fatal(err)
	}
	added := rec.WaitFor(t, 0, 2*time.Second, "created", raw("AXCreated", "Share"))
	if added.Type != model.EventChildrenChanged {
		t.Fatalf("added = %+v", added)
	}
	if n := peek(t, d, notesPID, "share"); n.Actions[0] != "AXPress" || !n.States.Has(model.StateEnabled) {
		t.Fatalf("share defaults = %+v", n)
	}
	if err := d.Move(notesPID, "share", 10, -4); err != nil {
		t.Fatal(err)
	}
	if b := peek(t, d, notesPID, "share").Bounds; b.X != 260 || b.Y != 80 {
		t.Fatalf("moved to %+v", b)
	}
	if err := d.RemoveNode(notesPID, "share"); err != nil {
		t.Fatal(err)
	}
	gone := rec.WaitFor(t, 0, 2*time.Second, "destroyed", raw("AXUIElementDestroyed", "Share"))
	if gone.Type != model.EventElementDestroyed {
		t.Fatalf("gone = %+v", gone)
	}
	if err := d.SetTitle(notesPID, "share", "x"); model.CodeOf(err) != model.CodeElementNotFound {
		t.Fatalf("title of removed: %v", err)
	}
	if err := d.AddNode(notesPID, "", NodeSpec{ID: "about", Role: "AXWindow", Subrole: "AXDialog", Title: "About Notes"}); err != nil {
		t.Fatal(err)
	}
	dialog := rec.WaitFor(t, 0, 2*time.Second, "dialog", raw("AXWindowCreated", "About Notes"))
	if dialog.Type != model.EventDialogOpened {
		t.Fatalf("dialog = %+v", dialog)
	}
	wins, _ := d.Windows(context.Background(), notesPID)
	if len(wins) != 2 || wins[1].Role != model.RoleDialog || !wins[1].Focused {
		t.Fatalf("windows = %+v", wins)
	}
}

func TestRemovingFocusedSubtreeClearsFocus(t *testing.T) {
	d, _ := fakeDemo(t)
	if err := d.SetFocus(notesPID, "row-7"); err != nil {
		t.Fatal(err)
	}
	if err := d.RemoveNode(notesPID, "rows"); err != nil {
		t.Fatal(err)
	}
	if path, err := d.FocusPath(context.Background(), notesPID); err != nil || path != nil {
		t.Fatalf("focus path = %v, %v", path, err)
	}
	if _, ok := d.Peek(notesPID, "row-7-text"); ok {
		t.Fatal("a removed subtree's node is still indexed")
	}
}

func TestAddNodeValidates(t *testing.T) {
	d, _ := fakeDemo(t)
	for _, tc := range []struct {
		parent string
		spec   NodeSpec
		code   model.Code
	}{
		{"toolbar", NodeSpec{ID: "save", Role: "AXButton"}, model.CodeBadRequest},
		{"toolbar", NodeSpec{ID: "x", Role: "AXBogus"}, model.CodeBadRequest},
		{"", NodeSpec{ID: "x", Role: "AXButton"}, model.CodeBadRequest},
		{"toolbar", NodeSpec{ID: "x", Role: "AXSheet"}, model.CodeBadRequest},
		{"nowhere", NodeSpec{ID: "x", Role: "AXButton"}, model.CodeElementNotFound},
	} {
		if err := d.AddNode(notesPID, tc.parent, tc.spec); model.CodeOf(err) != tc.code {
			t.Errorf("add %+v under %q: %v", tc.spec, tc.parent, err)
		}
	}
}
