package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/observer/sim"
)

// One label changed in a 4,000-element window: the diff names that element alone, with its
// old and new name, and the cycle read it alone.
func TestPollDiffNamesOnlyTheChangedElement(t *testing.T) {
	r := startPoller(t, "large", live.PollResync(0))
	reset := r.firstReset(t, 4000)
	importKey, payeeKey := keyOf(reset.Added, "Import"), keyOf(reset.Added, "Payee 300")

	if err := r.desk.SetTitle(ledgerPID, "import", "Import CSV"); err != nil {
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	if reads := r.poll(t); reads != 1 {
		t.Errorf("the cycle read %d elements, want 1", reads)
	}
	d := r.next(t)
	wantOneChange(t, d, importKey, "name", "Import", "Import CSV")

	if err := r.desk.SetValue(ledgerPID, "entry-300-payee-text", "Payee 300 (paid)"); err != nil {
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	r.poll(t)
	wantOneChange(t, r.next(t), payeeKey, "name", "Payee 300", "Payee 300 (paid)")
}

func wantOneChange(t *testing.T, d model.Diff, key, field string, was, now any) {
	t.Helper()
	if d.Kind != model.DiffEvents || len(d.Added)+len(d.Removed) != 0 || len(d.Changed) != 1 {
		t.Fatalf("diff %s: %d added, %d removed, %d changed; want one change", d.Kind, len(d.Added), len(d.Removed), len(d.Changed))
	}
	c := d.Changed[0]
	if c.Key != key || len(c.Changes) != 1 {
		t.Fatalf("changed %s with %v; want %s with %s alone", c.Key, c.Changes, key, field)
	}
	if fc := c.Changes[field]; fc.Old != was || fc.New != now {
		t.Errorf("%s changed %v -> %v, want %v -> %v", field, fc.Old, fc.New, was, now)
	}
	if d.Elements != 4000 || d.App.PID != ledgerPID || d.Window.ID != "ledger" {
		t.Errorf("diff of %+v %+v holding %d elements", d.App, d.Window, d.Elements)
	}
}

// An unchanged window publishes nothing, cycle after cycle, resyncs included, on real ticks.
func TestPollPublishesNothingWhenNothingChanged(t *testing.T) {
	r := startPoller(t, "large", live.PollInterval(5*time.Millisecond), live.PollResync(4))
	r.firstReset(t, 4000)
	testkit.Eventually(t, 10*time.Second, "12 cycles with 3 full reads", func() bool {
		s, _ := r.stats(ledgerPID)
		return s.Cycles >= 12 && s.FullReads >= 3
	})
	r.none(t)
}

// A node added (with a child) is reported added, parents first, under its parent; removed, it
// is reported removed with its subtree.
func TestPollReportsAddedAndRemovedElements(t *testing.T) {
	r := startPoller(t, "large", live.PollResync(0))
	reset := r.firstReset(t, 4000)
	toolbar := reset.Added[1]
	if toolbar.Role != model.RoleToolbar {
		t.Fatalf("second element is %s, want the toolbar", toolbar.Role)
	}
	if err := r.desk.RemoveNode(ledgerPID, "entry-570"); err != nil { // a row: 7 elements
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	r.poll(t)
	if d := r.next(t); len(d.Removed) != 7 || d.Removed[0].Role != model.RoleRow || d.Elements != 3993 {
		t.Fatalf("removed %d elements (first %s), %d left; want a row of 7", len(d.Removed), d.Removed[0].Role, d.Elements)
	}

	help := sim.NodeSpec{ID: "help", Role: "AXGroup", Frame: []float64{460, 59, 200, 28}, Children: []sim.NodeSpec{
		{ID: "help-button", Role: "AXButton", Title: "Help", Frame: []float64{460, 59, 80, 28}},
		{ID: "about-button", Role: "AXButton", Title: "About", Frame: []float64{550, 59, 80, 28}},
	}}
	if err := r.desk.AddNode(ledgerPID, "ledger-toolbar", help); err != nil {
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	reads := r.poll(t)
	d := r.next(t)
	if d.Kind != model.DiffEvents || len(d.Added) != 3 || len(d.Removed)+len(d.Changed) != 0 || d.Elements != 3996 {
		t.Fatalf("diff %s: %d added, %d removed, %d changed, %d elements", d.Kind, len(d.Added), len(d.Removed), len(d.Changed), d.Elements)
	}
	group, button := d.Added[0], d.Added[1]
	if group.Parent != toolbar.Key || button.Parent != group.Key || button.Name != "Help" {
		t.Errorf("added %+v under %s, then %+v", group, toolbar.Key, button)
	}
	if reads > 8 {
		t.Errorf("placing and reading a 3-element subtree read %d elements", reads)
	}

	if err := r.desk.RemoveNode(ledgerPID, "help"); err != nil {
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	if reads := r.poll(t); reads != 0 {
		t.Errorf("a destroyed element cost %d reads, want none", reads)
	}
	d = r.next(t)
	if len(d.Removed) != 3 || d.Removed[0].Key != group.Key || d.Elements != 3993 {
		t.Fatalf("removed %d (first %+v), %d elements; want the group and its 2 buttons", len(d.Removed), d.Removed, d.Elements)
	}
}

// The copy of a window never outgrows the wide budget: elements that appear in a full copy are
// left out, as a full read would leave them, and nothing is published for them.
func TestPollCopyStaysWithinTheBudget(t *testing.T) {
	r := startPoller(t, "large", live.PollResync(0))
	r.firstReset(t, 4000) // the window fills the budget
	hint := sim.NodeSpec{ID: "hint", Role: "AXStaticText", Title: "Hint", Frame: []float64{460, 59, 80, 28}}
	if err := r.desk.AddNode(ledgerPID, "ledger-toolbar", hint); err != nil {
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	r.poll(t)
	r.none(t)
	if s, _ := r.stats(ledgerPID); s.Elements != 4000 {
		t.Errorf("the copy holds %d elements, want the budget's 4,000", s.Elements)
	}
}

// A move changes the bounds of the moved subtree; focus moving changes the state of both the
// element that lost it and the one that gained it.
func TestPollReportsMovesAndFocus(t *testing.T) {
	r := startPoller(t, "large", live.PollResync(0))
	r.firstReset(t, 4000)
	if err := r.desk.Move(ledgerPID, "ledger-toolbar", 0, 10); err != nil {
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	if reads := r.poll(t); reads != 6 {
		t.Errorf("a moved toolbar of 6 elements cost %d reads", reads)
	}
	if d := r.next(t); len(d.Changed) != 6 || d.Changed[0].Changes["bounds"].New.(*model.Rect).Y != 63 {
		t.Errorf("%d changed; want the toolbar and its 5 buttons moved", len(d.Changed))
	}

	for _, id := range []string{"new", "import"} {
		if err := r.desk.SetFocus(ledgerPID, id); err != nil {
			t.Fatal(err)
		}
		r.marked(t, ledgerPID, 1)
		r.poll(t)
	}
	r.next(t) // "new" gained focus
	d := r.next(t)
	if len(d.Changed) != 2 {
		t.Fatalf("%d changed; want New losing focus and Import gaining it", len(d.Changed))
	}
	for _, c := range d.Changed {
		gained := c.States.Has(model.StateFocused)
		if (c.Name == "Import") != gained {
			t.Errorf("%s focused=%v after focus moved to Import", c.Name, gained)
		}
	}
}

// A selection change is posted on the container: its children are re-read, and the rows whose
// selection changed are reported.
func TestPollReportsSelection(t *testing.T) {
	r := startPoller(t, "large", live.PollResync(0))
	r.firstReset(t, 4000)
	for _, id := range []string{"entry-5", "entry-6"} {
		err := r.desk.SetAttribute(context.Background(), r.desk.Ref(ledgerPID, id), "AXSelected", true)
		if err != nil {
			t.Fatal(err)
		}
		r.marked(t, ledgerPID, 1)
		if reads := r.poll(t); reads != 571 {
			t.Errorf("a selection change in a table of 570 rows read %d elements, want the table and its rows", reads)
		}
	}
	if d := r.next(t); len(d.Changed) != 1 || !d.Changed[0].States.Has(model.StateSelected) {
		t.Fatalf("%d changed; want row 5 selected", len(d.Changed))
	}
	d := r.next(t)
	if len(d.Changed) != 2 {
		t.Fatalf("%d changed; want row 5 deselected and row 6 selected", len(d.Changed))
	}
	for _, c := range d.Changed {
		if _, ok := c.Changes["states"]; !ok || len(c.Changes) != 1 {
			t.Errorf("row changed %v, want its states alone", c.Changes)
		}
	}
}

// Changes posted without notification are found by the resync, and only then.
func TestPollResyncFindsChangesWithoutNotification(t *testing.T) {
	r := startPoller(t, "large", live.PollResync(3))
	reset := r.firstReset(t, 4000)
	// The window fills the wide budget: make room for the element added below, or the full
	// read would cut the last element of the window.
	if err := r.desk.RemoveNode(ledgerPID, "entry-570"); err != nil {
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	r.poll(t)
	r.next(t)

	// An element announced on its own, without bounds: placed under the parent the platform
	// names, at once.
	if err := r.desk.AddNode(ledgerPID, "ledger-toolbar", sim.NodeSpec{ID: "hint", Role: "AXStaticText", Title: "Hint"}); err != nil {
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	r.poll(t) // the second cycle since the reset
	d := r.next(t)
	if d.Kind != model.DiffEvents || len(d.Added) != 1 || d.Added[0].Name != "Hint" || d.Added[0].Parent != reset.Added[1].Key {
		t.Fatalf("diff %s: added %+v, want Hint under the toolbar", d.Kind, d.Added)
	}

	if err := r.desk.SetEnabled(ledgerPID, "export", false); err != nil { // AppKit posts nothing for it
		t.Fatal(err)
	}
	if reads := r.poll(t); reads < 3990 { // the third cycle since the reset is a resync
		t.Errorf("the resync read %d elements, want the whole window", reads)
	}
	d = r.next(t)
	if d.Kind != model.DiffResync || len(d.Changed) != 1 || len(d.Added) != 0 || len(d.Removed) != 0 {
		t.Fatalf("diff %s: %d added, %d removed, %d changed", d.Kind, len(d.Added), len(d.Removed), len(d.Changed))
	}
	c := d.Changed[0]
	if c.Key != keyOf(reset.Added, "Export") || c.States.Has(model.StateEnabled) {
		t.Errorf("changed %s %v, want Export disabled", c.Name, c.Changes)
	}
}

// A window switch publishes a reset of the new window; its closing, a reset of the window
// focused again.
func TestPollResetsOnWindowSwitch(t *testing.T) {
	r := startPoller(t, "large", live.PollResync(0))
	r.firstReset(t, 4000)
	prefs := sim.NodeSpec{ID: "prefs", Role: "AXWindow", Subrole: "AXStandardWindow", Title: "Preferences",
		Frame: []float64{100, 100, 400, 300}, Children: []sim.NodeSpec{
			{ID: "prefs-ok", Role: "AXButton", Title: "OK", Frame: []float64{400, 350, 80, 28}},
		}}
	if err := r.desk.AddNode(ledgerPID, "", prefs); err != nil {
		t.Fatal(err)
	}
	r.poll(t)
	d := r.next(t)
	if d.Kind != model.DiffReset || d.Window.ID != "prefs" || len(d.Added) != 2 || d.Elements != 2 {
		t.Fatalf("diff %s of %s: %d added; want a reset of Preferences", d.Kind, d.Window.ID, len(d.Added))
	}
	if err := r.desk.RemoveNode(ledgerPID, "prefs"); err != nil {
		t.Fatal(err)
	}
	r.poll(t)
	if d = r.next(t); d.Kind != model.DiffReset || d.Window.ID != "ledger" || len(d.Added) != 4000 {
		t.Fatalf("diff %s of %s: %d added; want a reset of Ledger", d.Kind, d.Window.ID, len(d.Added))
	}
}

// App exit publishes gone and ends the app's poller; the relaunched app is polled anew.
func TestPollEndsWithTheApp(t *testing.T) {
	r := startPoller(t, "large")
	first := r.firstReset(t, 4000)
	if err := r.desk.Kill(ledgerPID); err != nil {
		t.Fatal(err)
	}
	if d := r.next(t); d.Kind != model.DiffGone || d.Window.ID != "ledger" {
		t.Fatalf("diff %s after the app exited, want gone", d.Kind)
	}
	r.poll(t)
	if s := r.poller.Stats(); len(s) != 0 {
		t.Fatalf("still polling %+v", s)
	}
	if err := r.desk.Relaunch(ledgerPID); err != nil {
		t.Fatal(err)
	}
	r.poll(t)
	d := r.firstReset(t, 4000)
	if d.App.Generation <= first.App.Generation || d.Added[0].Key == first.Added[0].Key {
		t.Errorf("relaunch kept generation %d and key %s", d.App.Generation, d.Added[0].Key)
	}
}

// A diff the sink could not take is followed by a reset, from memory; so is a Resend.
func TestPollResetsAfterALostDiff(t *testing.T) {
	r := startPoller(t, "large", live.PollResync(0))
	r.firstReset(t, 4000)
	r.accept.Store(false)
	if err := r.desk.SetTitle(ledgerPID, "sync", "Sync now"); err != nil {
		t.Fatal(err)
	}
	r.marked(t, ledgerPID, 1)
	r.poll(t) // the diff is lost
	r.accept.Store(true)
	if reads := r.poll(t); reads != 0 {
		t.Errorf("a reset from memory read %d elements", reads)
	}
	d := r.next(t)
	if d.Kind != model.DiffReset || len(d.Added) != 4000 || keyOf(d.Added, "Sync now") == "" {
		t.Fatalf("diff %s with %d added; want a reset holding the lost change", d.Kind, len(d.Added))
	}
	r.poll(t)
	r.none(t)
	r.poller.Resend(ledgerPID)
	r.poll(t)
	if d = r.next(t); d.Kind != model.DiffReset {
		t.Fatalf("diff %s after Resend, want reset", d.Kind)
	}
}

// The app filter polls the apps named, and only them.
func TestPollAppsFilter(t *testing.T) {
	r := startPoller(t, "demo", live.PollApps(model.AppQuery{Name: "notes"}))
	d := r.next(t)
	if d.App.Name != "Notes" || d.Kind != model.DiffReset {
		t.Fatalf("first diff %s of %s, want a reset of Notes", d.Kind, d.App.Name)
	}
	r.poll(t)
	r.none(t)
	if s := r.poller.Stats(); len(s) != 1 || s[0].App.Name != "Notes" {
		t.Errorf("polling %+v, want Notes alone", s)
	}
}

// Secure text never leaves in a diff, not even in a reset; the JSON names fields as documented.
func TestPollDiffJSON(t *testing.T) {
	r := startPoller(t, "demo", live.PollApps(model.AppQuery{PID: 501}), live.PollResync(0))
	reset := r.next(t)
	b, err := json.Marshal(reset)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("correct-horse")) {
		t.Fatal("a secure field's value got into a diff")
	}
	if err := r.desk.SetValue(501, "title", "Groceries"); err != nil {
		t.Fatal(err)
	}
	r.marked(t, 501, 1)
	r.poll(t)
	b, err = json.Marshal(r.next(t))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Kind    string `json:"kind"`
		Changed []struct {
			Key     string                            `json:"key"`
			Parent  string                            `json:"parent"`
			Role    string                            `json:"role"`
			Value   string                            `json:"value"`
			Changes map[string]struct{ Old, New any } `json:"changes"`
		} `json:"changed"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	c := got.Changed[0]
	if got.Kind != "events" || c.Role != "text_field" || c.Value != "Groceries" || c.Parent == "" ||
		c.Changes["value"].Old != "Shopping list" || c.Changes["value"].New != "Groceries" {
		t.Errorf("diff JSON %s", b)
	}
	t.Logf("%s", b)
}
