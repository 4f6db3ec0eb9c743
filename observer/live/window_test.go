package live_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/observer/sim"
)

// openLive opens the live tree of Notes' main window and feeds it the desktop's events.
func openLive(t *testing.T) (*live.Window, *sim.Desktop, func() live.Changes) {
	t.Helper()
	o, desk := demo(t)
	ctx := context.Background()
	app, wins, err := o.Windows(ctx, model.AppQuery{PID: notes})
	if err != nil {
		t.Fatal(err)
	}
	lw, err := live.OpenWindow(ctx, o, app, wins[0])
	if err != nil {
		t.Fatal(err)
	}
	noted := make(chan struct{}, 1)
	tok, err := o.Subscribe(func(e model.Event) {
		if e.App.PID == notes {
			lw.Note(e)
			select {
			case noted <- struct{}{}:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Unsubscribe(tok) })
	// refresh after each event until the tree saw a change, as a wait does
	refresh := func() live.Changes {
		t.Helper()
		deadline := time.After(2 * time.Second)
		for {
			if c := lw.Refresh(ctx); !c.Empty() {
				return c
			}
			select {
			case <-noted:
			case <-deadline:
				t.Fatal("no change seen")
			}
		}
	}
	return lw, desk, refresh
}

func TestLiveWindowFollowsEventsWithFewReads(t *testing.T) {
	lw, desk, refresh := openLive(t)
	if err := desk.Perform(context.Background(), desk.Ref(notes, "save"), "AXPress"); err != nil {
		t.Fatal(err)
	}
	// 200 ms later "Saved" is added to the toolbar and a sheet opens: their events may come in
	// more than one refresh.
	c := refresh()
	for ok := desk.Ref(notes, "save-sheet-ok"); ok == "" || !holds(lw, ok); ok = desk.Ref(notes, "save-sheet-ok") {
		more := refresh()
		c.Added, c.Reads = append(c.Added, more.Added...), c.Reads+more.Reads
	}
	var saved bool
	for _, ref := range c.Added {
		if n, ok := lw.Node(ref); ok && (n.Name == "Saved" || n.Value == "Saved") {
			saved = true
		}
	}
	if !saved || c.Reads > 10 {
		t.Fatalf("added %v with %d reads: want the Saved label, read cheaply", c.Added, c.Reads)
	}
	if err := desk.SetTitle(notes, "save", "Store"); err != nil {
		t.Fatal(err)
	}
	c = refresh()
	if len(c.Changed) != 1 || c.Reads > 2 {
		t.Fatalf("a renamed button: %+v", c)
	}
	if n, _ := lw.Node(c.Changed[0]); n.Name != "Store" {
		t.Fatalf("the tree holds %+v", n)
	}
	// What the refresh read it gives as read: a wait takes it for confirmed.
	if n := c.Fresh[c.Changed[0]]; n == nil || n.Name != "Store" {
		t.Fatalf("fresh %+v", c.Fresh)
	}
}

// A copy not read yet keeps what events marked: its Load may have read an element before its
// change, and the refresh after the Load reads it again.
func TestLiveWindowKeepsMarksUntilLoaded(t *testing.T) {
	o, desk := demo(t)
	ctx := context.Background()
	app, wins, err := o.Windows(ctx, model.AppQuery{PID: notes})
	if err != nil {
		t.Fatal(err)
	}
	lw := live.NewWindow(o, app, wins[0])
	save := desk.Ref(notes, "save")
	lw.Note(model.Event{Type: model.EventTitleChanged, App: app.Ref(), Ref: save})
	if c := lw.Refresh(ctx); !c.Empty() || c.Reads != 0 || !lw.Pending() {
		t.Fatalf("a refresh before the load: %+v, pending %v", c, lw.Pending())
	}
	if err := lw.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if c := lw.Refresh(ctx); c.Reads == 0 || c.Fresh[save] == nil || lw.Pending() {
		t.Fatalf("the refresh after the load: %+v", c)
	}
}

func TestLiveWindowSnapshotHoldsTheMatch(t *testing.T) {
	lw, _, _ := openLive(t)
	var row350, save model.NodeRef
	lw.Each(func(n *model.Node) bool {
		switch {
		case n.Name == "Row 350" || n.Value == "Row 350":
			row350 = n.Ref
		case n.Role == model.RoleButton && n.Name == "Save":
			save = n.Ref
		}
		return true
	})
	if row350 == "" || save == "" {
		t.Fatal("row 350 or Save is not in the live tree: it holds the whole window")
	}
	ctx := context.Background()
	visible, el, err := lw.Snapshot(ctx, save)
	if err != nil {
		t.Fatal(err)
	}
	if el == nil || el.Name != "Save" || visible.Scope != nil || visible.Budget.MaxElements != 200 || !slices.ContainsFunc(visible.Elements, func(e model.Element) bool { return e.Name == "Save" }) {
		t.Fatalf("a visible match: scope %+v, budget %+v", visible.Scope, visible.Budget)
	}
	far, _, err := lw.Snapshot(ctx, row350)
	if err != nil {
		t.Fatal(err)
	}
	if far.Scope == nil || len(far.Elements) > observer.ListingRootLimit || far.Elements[0].ID != far.Scope.Element {
		t.Fatalf("a match past the budget: scope %+v, %d elements", far.Scope, len(far.Elements))
	}
	found := slices.ContainsFunc(far.Elements, func(e model.Element) bool {
		return e.Text == "Row 350" || e.Name == "Row 350" || (e.Value != nil && *e.Value == "Row 350")
	})
	if !found {
		t.Fatal("the listing root's subtree lacks row 350")
	}
}

// holds reports whether the live copy holds ref.
func holds(lw *live.Window, ref model.NodeRef) bool {
	_, ok := lw.Node(ref)
	return ok
}
