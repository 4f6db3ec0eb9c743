package waiters

import (
	"context"
	"slices"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer/live"
)

// The watcher's view of its app's windows: which there are, the live copies of their trees it
// keeps, and the whole re-read (resync) that makes them true again after missed events.

// resynced is what a whole re-read changed.
type resynced struct {
	touched     map[model.NodeRef]bool
	winsChanged bool
}

// resync re-reads the app whole, for what no notification announced, off the loop; resyncDone
// evaluates the waits on what it changed.
func (aw *appWatch) resync(ctx context.Context) {
	if aw.gone {
		return
	}
	before := aw.windows
	aw.refreshWindows(ctx)
	r := resynced{touched: map[model.NodeRef]bool{}, winsChanged: !sameWindows(before, aw.windows)}
	var due []*live.Window
	for _, lw := range aw.liveSnapshot() {
		if lw.Loaded() && lw.ResyncDue() { // else being read whole now, or re-read whole so recently, for so long, that the waits come first
			due = append(due, lw)
		}
	}
	aw.resyncing = true
	aw.bg.Add(1)
	go func() {
		defer aw.bg.Done()
		for _, lw := range due {
			c := lw.Resync(ctx)
			for _, ref := range append(c.Added, c.Changed...) {
				r.touched[ref] = true
			}
			if len(c.Removed) > 0 {
				r.touched[""] = true
			}
		}
		aw.resynced <- r // buffered: one re-read at a time
	}()
}

// resyncDone evaluates the waits after a whole re-read. Every wait was evaluated on the copy as
// it was: only what the re-read changed can change an outcome, which keeps a thousand waits'
// recheck as cheap as one's. What events named while it read is read again first.
func (aw *appWatch) resyncDone(ctx context.Context, r resynced) {
	aw.mu.Lock()
	if len(r.touched) == 0 && !r.winsChanged {
		aw.pace = min(2*aw.pace, MaxRecheck)
	} else {
		aw.pace = DefaultRecheck // it found what no notification said: keep looking often
	}
	aw.mu.Unlock()
	touched, fresh := aw.refreshLive(ctx)
	for ref := range touched {
		r.touched[ref] = true
	}
	aw.evaluateWaits(ctx, &change{trigger: &Trigger{Kind: "recheck"}, touched: r.touched, fresh: fresh, winsChanged: r.winsChanged}, nil)
}

// sameWindows reports whether two window lists are alike for conditions.
func sameWindows(a, b []model.Window) bool {
	return slices.EqualFunc(a, b, func(x, y model.Window) bool {
		return x.ID == y.ID && x.Title == y.Title && x.Role == y.Role && x.Focused == y.Focused && x.Modal == y.Modal
	})
}

// ended finishes the waits of an app that exited: those whose condition holds of an app with no
// window (a window gone, an element gone) are met, the others end with app_gone.
func (aw *appWatch) ended() {
	aw.windows = nil
	aw.mu.Lock()
	aw.live = map[model.NodeRef]*live.Window{}
	aw.mu.Unlock()
	for _, w := range aw.waitList() {
		if w.app.PID != aw.pid {
			continue // a desktop wait: other apps may still meet it
		}
		if ok, _, _ := w.cond.Holds(&view{}); ok {
			w.finish(&Result{Outcome: Met, Trigger: &Trigger{Kind: "event", Event: model.EventAppTerminated}, App: refOf(w.app)})
			continue
		}
		w.finish(&Result{Outcome: AppGone, App: refOf(w.app), Error: model.Errorf(model.CodeAppGone,
			"The app exited before the condition held; start it again and wait again.",
			"%s (pid %d) exited", w.app.Name, w.app.PID)})
	}
}

func refOf(a model.App) *model.AppRef {
	r := a.Ref()
	return &r
}

// windowsChanged reports whether events may have changed the app's window list.
func windowsChanged(evs []model.Event) bool {
	for _, ev := range evs {
		switch ev.Type {
		case model.EventWindowCreated, model.EventWindowClosed, model.EventDialogOpened,
			model.EventAppLaunched, model.EventAppActivated, model.EventTitleChanged:
			return true
		case model.EventChildrenChanged, model.EventElementDestroyed:
			if ev.Element != nil && ev.Element.Role.IsWindowLike() || ev.Element != nil && ev.Element.Role == model.RoleApplication {
				return true
			}
		}
	}
	return false
}

// refreshWindows lists the app's windows again; live windows of windows that closed are dropped.
func (aw *appWatch) refreshWindows(ctx context.Context) {
	app, wins, err := aw.e.o.Windows(ctx, model.AppQuery{PID: aw.pid})
	if err != nil {
		if c := model.CodeOf(err); c == model.CodeAppNotFound || c == model.CodeAppGone {
			aw.gone = true
			aw.ended()
		}
		return
	}
	aw.app, aw.windows = app, wins
	aw.mu.Lock()
	for ref := range aw.live {
		if !slices.ContainsFunc(wins, func(w model.Window) bool { return w.Ref == ref }) {
			delete(aw.live, ref)
		}
	}
	for ref := range aw.failed {
		if !slices.ContainsFunc(wins, func(w model.Window) bool { return w.Ref == ref }) {
			delete(aw.failed, ref)
		}
	}
	aw.mu.Unlock()
}

// refreshLive re-reads what events marked in the live windows and returns the elements added
// or changed (a removal as the empty ref), and those it read, as read.
func (aw *appWatch) refreshLive(ctx context.Context) (touched map[model.NodeRef]bool, fresh map[model.NodeRef]*model.Node) {
	touched = map[model.NodeRef]bool{}
	for _, lw := range aw.liveSnapshot() {
		if !lw.Pending() {
			continue
		}
		c := lw.Refresh(ctx)
		for _, ref := range append(c.Added, c.Changed...) {
			touched[ref] = true
		}
		if len(c.Removed) > 0 {
			touched[""] = true // something went: conditions must look again, but no element to check
		}
		for ref, n := range c.Fresh {
			if fresh == nil {
				fresh = map[model.NodeRef]*model.Node{}
			}
			fresh[ref] = n
		}
	}
	return touched, fresh
}

// liveFor returns the live copy of win, and starts reading it whole the first time, off the
// loop (load.go): the copy takes the app's events from now on, so that a change made while it is
// read is not lost, and the waits listen at once. nil: its last whole read failed just now.
func (aw *appWatch) liveFor(ctx context.Context, win model.Window) *live.Window {
	aw.mu.Lock()
	lw := aw.live[win.Ref]
	if lw == nil {
		if time.Since(aw.failed[win.Ref]) < retryLoad {
			aw.mu.Unlock()
			return nil
		}
		delete(aw.failed, win.Ref)
		lw = live.NewWindow(aw.e.o, aw.app, win)
		aw.live[win.Ref] = lw
	}
	aw.mu.Unlock()
	if !lw.Loaded() && !aw.loading[lw] {
		aw.load(ctx, lw)
	}
	return lw
}
