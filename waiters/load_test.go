package waiters

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/waiters/condition"
)

// countingDesk counts, per element, how often the engine reads it from the app.
type countingDesk struct {
	*sim.Desktop
	mu    sync.Mutex
	reads map[model.NodeRef]int
	total int
}

func (c *countingDesk) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	c.mu.Lock()
	for _, r := range refs {
		c.reads[r]++
	}
	c.total += len(refs)
	c.mu.Unlock()
	return c.Desktop.Read(ctx, refs)
}

func (c *countingDesk) counts(ref model.NodeRef) (one, all int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads[ref], c.total
}

// countingRig is an engine on the demo desktop whose reads are counted.
func countingRig(t *testing.T) (*rig, *countingDesk) {
	t.Helper()
	r := newRig(t) // the leak check, the desktop's close
	r.e.Stop()
	cd := &countingDesk{Desktop: r.desk, reads: map[model.NodeRef]int{}}
	o := observer.New(cd)
	e := New(o)
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
	return &rig{o: o, desk: r.desk, e: e}, cd
}

// A wait listens before its window's copy is read whole, and an event met meanwhile is looked at
// on what it named, read after the event: the wait is met long before the whole read ends, and
// its reply lists the subtree read.
func TestWaitMetByAnEventWhileItsWindowIsRead(t *testing.T) {
	r := bigWindow(t, 2000, 100) // the whole read: 4,000 elements in calls of 32, 100 ms each
	start := time.Now()
	res := r.wait(t, `text="Fresh"`, model.AppQuery{PID: 701}, 10*time.Second, func() {
		if r.e.loaded(701) {
			t.Error("armed once the window was read whole")
		}
		if err := r.desk.AddNode(701, "t", sim.NodeSpec{ID: "fresh", Role: "AXStaticText", Value: textOf("Fresh"), Frame: []float64{0, 0, 100, 20}}); err != nil {
			t.Error(err)
		}
	})
	if res.Outcome != Met || res.Trigger == nil || res.Trigger.Kind != "event" || !listsMatch(res) {
		t.Fatalf("result %+v", res)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("met after %v: it waited for the window's whole read", took)
	}
	insp := listing(res)
	if insp.Scope == nil || insp.Elements[0].ID != insp.Scope.Element || len(insp.Elements) != 1 {
		t.Fatalf("the listing of what the event named: scope %+v, %d elements", insp.Scope, len(insp.Elements))
	}
	if _, err := r.o.Store().Get(insp.SnapshotID); err != nil {
		t.Fatal("the reply's snapshot is not stored: its ids would not be actionable")
	}
}

// loaded reports whether the watcher of pid holds a copy read whole.
func (e *Engine) loaded(pid int) bool {
	e.mu.Lock()
	aw := e.apps[pid]
	e.mu.Unlock()
	for _, lw := range aw.liveSnapshot() {
		if lw.Loaded() {
			return true
		}
	}
	return false
}

// What only the whole window can decide waits for its read: an element gone is not gone from a
// copy not read yet; the timeout says the window was still being read. A condition that held
// when the wait began is met once the read ends, as initial.
func TestWaitOnAWindowBeingReadDecidesOnlyWhatItCan(t *testing.T) {
	r := bigWindow(t, 200, 50) // the whole read: 13 calls of 50 ms
	res := r.wait(t, `text="Row 5" gone`, model.AppQuery{PID: 701}, 200*time.Millisecond, nil)
	if res.Outcome != Timeout || len(res.Limits) != 1 || !res.Limits[0].Reading {
		t.Fatalf("gone of a window being read: %+v", res)
	}
	res = r.wait(t, `text="Row 200"`, model.AppQuery{PID: 701}, 10*time.Second, nil)
	if res.Outcome != Met || res.Trigger == nil || res.Trigger.Kind != "initial" || !listsMatch(res) {
		t.Fatalf("a row there from the start: %+v", res)
	}
}

// The element an event named and a refresh read is the confirmation: a wait met on it does not
// read it again. Waits on one window share the look at what the change touched.
func TestWaitTakesWhatTheRefreshReadForConfirmed(t *testing.T) {
	r, cd := countingRig(t)
	warm := r.wait(t, `element:role=button,name="Save"`, notesApp, 5*time.Second, nil) // reads the window whole
	if warm.Outcome != Met {
		t.Fatalf("warm-up: %+v", warm)
	}
	cond, err := condition.ParseCompact(`text="Fresh"`)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.e.Wait(context.Background(), Request{Condition: cond, App: notesApp, Window: "Notes", Timeout: 5 * time.Second}, func() {
		if err := r.desk.AddNode(notes, "toolbar", sim.NodeSpec{ID: "fresh", Role: "AXStaticText", Value: textOf("Fresh"), Frame: []float64{300, 84, 60, 20}}); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Met || res.Trigger == nil || res.Trigger.Kind != "event" || !listsMatch(res) {
		t.Fatalf("result %+v", res)
	}
	if n, _ := cd.counts(r.desk.Ref(notes, "fresh")); n != 1 {
		t.Fatalf("the match was read %d times: the refresh's read confirms it", n)
	}
}

// A window condition's reply is listed from the window's copy when the watcher keeps one: no
// element is read for it.
func TestWaitWindowReplyListedFromTheCopy(t *testing.T) {
	r, cd := countingRig(t)
	if warm := r.wait(t, `element:role=button,name="Save"`, notesApp, 5*time.Second, nil); warm.Outcome != Met {
		t.Fatalf("warm-up: %+v", warm)
	}
	_, before := cd.counts("")
	res := r.wait(t, `window:title="Notes"`, notesApp, 5*time.Second, nil)
	if res.Outcome != Met || res.Window == nil || res.Window.Title != "Notes" {
		t.Fatalf("result %+v", res)
	}
	insp := listing(res)
	if insp == nil || len(insp.Elements) == 0 || insp.Window.Title != "Notes" {
		t.Fatalf("listing %+v", insp)
	}
	if _, after := cd.counts(""); after != before {
		t.Fatalf("%d elements read for the reply: the copy lists the window", after-before)
	}
}

// layingOutDesk is a desktop whose app, like GTK3, lays out an element it adds and answers no
// read meanwhile; the backend reads the element as the event comes (model.Event.Added).
type layingOutDesk struct {
	*sim.Desktop
	mu   sync.Mutex
	busy time.Time // when the app answers reads again
}

func (d *layingOutDesk) Watch(sink func(model.Event)) (func(), error) {
	return d.Desktop.Watch(func(ev model.Event) {
		if ev.Type == model.EventChildrenChanged && ev.Raw == "AXCreated" {
			n := d.Desktop.Read(context.Background(), []model.NodeRef{ev.Ref})[0]
			ev.Added = &n
			d.mu.Lock()
			d.busy = time.Now().Add(3 * time.Second)
			d.mu.Unlock()
		}
		sink(ev)
	})
}

func (d *layingOutDesk) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	d.mu.Lock()
	busy := time.Until(d.busy)
	d.mu.Unlock()
	select {
	case <-time.After(busy):
	case <-ctx.Done():
	}
	return d.Desktop.Read(ctx, refs)
}

// An element the backend read as it was added meets a wait on its own: the wait does not read
// it again while the app lays it out. Its reply lists that element.
func TestWaitMetByTheElementTheEventCarried(t *testing.T) {
	r := newRig(t)
	r.e.Stop()
	ld := &layingOutDesk{Desktop: r.desk}
	o := observer.New(ld)
	e := New(o)
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
	r = &rig{o: o, desk: r.desk, e: e}
	if warm := r.wait(t, `element:role=button,name="Save"`, notesApp, 5*time.Second, nil); warm.Outcome != Met {
		t.Fatalf("warm-up: %+v", warm)
	}
	start := time.Now()
	res := r.wait(t, `text="Fresh"`, notesApp, 5*time.Second, func() {
		if err := r.desk.AddNode(notes, "toolbar", sim.NodeSpec{ID: "fresh", Role: "AXStaticText", Value: textOf("Fresh"), Frame: []float64{300, 84, 60, 20}}); err != nil {
			t.Error(err)
		}
	})
	if res.Outcome != Met || res.Trigger == nil || res.Trigger.Kind != "event" || !listsMatch(res) {
		t.Fatalf("result %+v", res)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("met after %v: it read the element again while the app laid it out", took)
	}
	if insp := listing(res); len(insp.Elements) != 1 {
		t.Fatalf("the reply lists %d elements, want the one added", len(insp.Elements))
	}
}
