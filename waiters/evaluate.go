package waiters

import (
	"context"
	"maps"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/waiters/condition"
)

// evaluate checks w against the app as the watcher knows it, the elements of fresh (read this
// round) as read, and, when the condition holds, confirms it against the app itself before
// answering: a stale copy never resolves a wait.
func (aw *appWatch) evaluate(ctx context.Context, w *wait, trigger *Trigger, fresh map[model.NodeRef]*model.Node) {
	v := aw.viewFor(ctx, w)
	v.override = fresh
	aw.check(ctx, w, trigger, v)
}

// check is evaluate on a view made already. A view that lacks a window still being read decides
// only what an element of it can prove: that one appears (the load's end decides the rest). A
// wait that needs more than InlineBudget steps is evaluated off the watcher (costly.go).
func (aw *appWatch) check(ctx context.Context, w *wait, trigger *Trigger, v *view) {
	if v.partial && (w.loc != nil || !w.cond.AppearsOnly()) {
		return
	}
	if w.loc != nil {
		aw.checkLocate(ctx, w, trigger, v)
		return
	}
	if w.costly.Load() || aw.spent >= RoundBudget {
		w.lastCost.CompareAndSwap(0, InlineBudget) // unknown yet: after the waits known to be cheap, until the pool measures it
		aw.offload(ctx, w, trigger, v)
		return
	}
	mt := newMeter(InlineBudget, w)
	outcome := aw.settle(ctx, w, trigger, v, aw.env(), mt)
	aw.charge(w, mt)
	switch outcome {
	case notHeld:
		if v.only == nil && !v.partial {
			delete(aw.unconfirmed, w)
		}
	case heldUnconfirmed: // until it is answered, the next recheck looks at it whole again
		aw.unconfirmed[w] = true
	case met:
		delete(aw.unconfirmed, w)
	case stopped:
		if mt.Over() {
			w.costly.Store(true)
			aw.offload(ctx, w, trigger, v)
		}
	}
}

// charge counts what w's evaluation on the watcher took: to the round, and as w's last cost.
func (aw *appWatch) charge(w *wait, mt *condition.Meter) {
	aw.spent += mt.Used()
	w.lastCost.Store(mt.Used())
}

// settled is how an evaluation of a wait ended.
type settled int

const (
	notHeld         settled = iota
	heldUnconfirmed         // it held of the copy, not (yet) of the app read again
	met                     // answered
	stopped                 // its meter stopped it: it proves nothing
)

// settle evaluates w on v, metered by mt, and, when the condition holds, confirms it against the
// app itself and answers the wait: a stale copy never resolves a wait. It touches no state of
// the watcher's loop (env is what it needs of it), so the costly pool runs it too.
func (aw *appWatch) settle(ctx context.Context, w *wait, trigger *Trigger, v *view, env evalEnv, mt *condition.Meter) settled {
	ok, match, win := w.cond.HoldsWithin(v, mt)
	if mt.Done() {
		return stopped
	}
	if !ok {
		return notHeld
	}
	if match != nil && v.override[match.Ref] == nil { // confirm: read the element again; it must still make the condition hold
		fresh := aw.e.o.Backend().Read(ctx, []model.NodeRef{match.Ref})
		if fresh[0].Err != nil {
			return heldUnconfirmed // it went away meanwhile: the next event or re-read decides
		}
		confirmed := *v // other waits may share v: the fresh read is this wait's
		confirmed.override = maps.Clone(v.override)
		if confirmed.override == nil {
			confirmed.override = map[model.NodeRef]*model.Node{}
		}
		confirmed.override[match.Ref] = &fresh[0]
		v = &confirmed
		ok, match, win = w.cond.HoldsWithin(v, mt)
		if mt.Done() {
			return stopped
		}
		if !ok {
			return heldUnconfirmed
		}
	}
	r := &Result{Outcome: Met, Trigger: trigger, App: refOf(env.app)}
	switch {
	case match != nil:
		insp, el, wr, err := aw.listMatch(ctx, v, match.Ref, env)
		if err != nil {
			return heldUnconfirmed
		}
		r.Snapshot, r.Match, r.Window = api.NewListing(insp), el, &wr
	case win != nil:
		wr := win.RefOf()
		r.Window = &wr
		r.Snapshot = aw.listWindow(ctx, *win)
	default: // it holds of no element (something gone): the reply shows the window as it is now
		if len(v.lives) > 0 {
			if insp, _, err := v.lives[0].Snapshot(ctx, ""); err == nil {
				r.Snapshot = api.NewListing(insp)
				wr := v.lives[0].Window().RefOf()
				r.Window = &wr
			}
		}
	}
	w.finish(r)
	return met
}

// listWindow is the listing of a window a window condition holds of: from its live copy when
// the watcher keeps one read whole, else inspected (a dialog just opened has none).
func (aw *appWatch) listWindow(ctx context.Context, win model.Window) *api.Listing {
	aw.mu.Lock()
	lw := aw.live[win.Ref]
	aw.mu.Unlock()
	if lw != nil && lw.Loaded() {
		if insp, _, err := lw.Snapshot(ctx, ""); err == nil {
			return api.NewListing(insp)
		}
	}
	insp, err := aw.e.o.Inspect(ctx, observer.InspectRequest{App: model.AppQuery{PID: aw.pid}, Window: win.ID})
	if err != nil {
		return nil
	}
	return api.NewListing(insp)
}

// listMatch stores a snapshot that lists the match and returns it with the match as listed and
// its window: from the live copy of the window that holds it, else (a target the window's tree
// no longer holds) read from the app.
func (aw *appWatch) listMatch(ctx context.Context, v *view, ref model.NodeRef, env evalEnv) (*model.Inspection, *model.Element, model.WindowRef, error) {
	if lw := v.owner(ref); lw != nil {
		insp, el, err := lw.Snapshot(ctx, ref)
		return insp, el, lw.Window().RefOf(), err
	}
	var win model.Window
	switch {
	case len(v.lives) > 0:
		win = v.lives[0].Window()
	case len(env.windows) > 0:
		win = env.windows[0]
	}
	insp, el, err := aw.e.o.SnapshotOf(ctx, env.app, win, ref)
	return insp, el, win.RefOf(), err
}

// viewFor is what w sees of the app: every window for window and dialog conditions (a dialog
// opens in a new window), and the elements of its window (or of all the app's windows), or of
// its scope.
func (aw *appWatch) viewFor(ctx context.Context, w *wait) *view {
	v := &view{targets: w.targets, scope: w.scope, windows: aw.windows}
	if !w.cond.NeedsElements() {
		return v
	}
	if len(w.targets) > 0 {
		v.read = func(ref model.NodeRef) *model.Node {
			n := aw.e.o.Backend().Read(ctx, []model.NodeRef{ref})[0]
			if n.Err != nil {
				return nil
			}
			return &n
		}
	}
	wins := aw.windows
	if w.req.Window != "" {
		win, err := observer.PickWindow(aw.app, aw.windows, w.req.Window)
		if err != nil {
			return v // not (or no longer) there: no element of it holds
		}
		wins = []model.Window{win}
	}
	w.seen.set(func() []api.WaitLimit { return aw.limitsFor(wins) })
	for _, win := range wins {
		switch lw := aw.liveFor(ctx, win); {
		case lw == nil: // it could not be read: the wait looks without it
		case lw.Loaded():
			v.lives = append(v.lives, lw)
		default:
			v.partial = true // being read: see check
		}
	}
	return v
}

// frozenKey is what a view looks at, as one change's frozen views share their lists: a window
// (the wait's window, "" for all), a scope, the touched elements or all, and how many window
// copies it has (none for a condition on windows alone).
type frozenKey struct {
	window string
	scope  model.NodeRef
	only   bool
	lives  int
}

// view is the watcher's copy of an app as one wait sees it.
type view struct {
	windows  []model.Window
	lives    []*live.Window
	targets  map[string]model.NodeRef
	scope    model.NodeRef
	override map[model.NodeRef]*model.Node // fresh reads that replace the copy
	only     map[model.NodeRef]bool        // when set, the only elements to look at
	// onlyNodes are the elements of only, looked up once for all the waits that share the view.
	onlyNodes []*model.Node
	// read reads a target the windows' copies do not hold (a page of a stack that is not shown
	// leaves the tree, its elements live on); detached keeps what it read for this view.
	read     func(model.NodeRef) *model.Node
	detached map[model.NodeRef]*model.Node
	// partial says a window of the view is still being read whole: lives lack it.
	partial bool
	// frozen, when not nil, are the elements Elements gives, listed when the view was frozen
	// for an evaluation off the watcher (freeze); focused is then the focused element.
	frozen  []*model.Node
	focused *model.Node
}

// freeze copies v for an evaluation off the watcher: its elements listed now, as fresh as v has
// them, so that matching them holds no window's lock, and its own copy of what it reads later.
// The lists are shared, by what v looks at, among the waits frozen for one change (listed).
func (v *view) freeze(listed map[frozenKey][]*model.Node, window string) *view {
	f := *v
	k := frozenKey{window: window, scope: v.scope, only: v.only != nil, lives: len(v.lives)}
	if f.frozen = listed[k]; f.frozen == nil {
		f.frozen = []*model.Node{}
		v.Elements(func(n *model.Node) bool {
			f.frozen = append(f.frozen, n)
			return true
		})
		listed[k] = f.frozen
	}
	f.focused = v.Focused()
	f.detached = maps.Clone(v.detached)
	return &f
}

func (v *view) node(n *model.Node) *model.Node {
	if o := v.override[n.Ref]; o != nil {
		return o
	}
	return n
}

// Elements calls fn for every element of the view's windows (or scope), until it returns false;
// with only set, for those elements alone (looked up, not searched for).
func (v *view) Elements(fn func(*model.Node) bool) {
	if v.frozen != nil {
		for _, n := range v.frozen {
			if !fn(v.node(n)) {
				return
			}
		}
		return
	}
	if v.only != nil && v.scope == "" {
		if v.onlyNodes == nil {
			v.onlyNodes = v.lookup(v.only)
		}
		for _, n := range v.onlyNodes {
			if !fn(v.node(n)) {
				return
			}
		}
		return
	}
	for _, lw := range v.lives {
		goOn := true
		each := lw.Each
		if v.scope != "" {
			each = func(f func(*model.Node) bool) { lw.EachUnder(v.scope, f) }
		}
		each(func(n *model.Node) bool {
			if v.only != nil && !v.only[n.Ref] {
				return true
			}
			goOn = fn(v.node(n))
			return goOn
		})
		if !goOn {
			return
		}
	}
}

// trees are the view's window copies as a locator searches them.
func (v *view) trees() []condition.Tree {
	out := make([]condition.Tree, len(v.lives))
	for i, lw := range v.lives {
		out[i] = lw
	}
	return out
}

// lookup finds the elements refs name in the view's windows, as fresh as the view has them.
func (v *view) lookup(refs map[model.NodeRef]bool) []*model.Node {
	out := make([]*model.Node, 0, len(refs))
	for ref := range refs {
		for _, lw := range v.lives {
			if n, ok := lw.Node(ref); ok {
				out = append(out, v.node(&n))
				break
			}
		}
	}
	return out
}

// Windows lists the view's windows.
func (v *view) Windows() []model.Window { return v.windows }

// Focused is the focused element, when a window of the view holds it.
func (v *view) Focused() *model.Node {
	if v.frozen != nil {
		if v.focused == nil {
			return nil
		}
		return v.node(v.focused)
	}
	for _, lw := range v.lives {
		if n, ok := lw.Focused(); ok {
			return v.node(&n)
		}
	}
	return nil
}

// Element is the element a condition names by id (e12 of the request's snapshot), as it is now.
func (v *view) Element(id string) *model.Node {
	ref, ok := v.targets[id]
	if !ok {
		return nil
	}
	if o := v.override[ref]; o != nil {
		return o
	}
	for _, lw := range v.lives {
		if n, ok := lw.Node(ref); ok {
			return &n
		}
	}
	if v.read == nil {
		return nil
	}
	n, ok := v.detached[ref]
	if !ok {
		n = v.read(ref)
		if v.detached == nil {
			v.detached = map[model.NodeRef]*model.Node{}
		}
		v.detached[ref] = n
	}
	return n
}

// owner is the live window that holds ref.
func (v *view) owner(ref model.NodeRef) *live.Window {
	for _, lw := range v.lives {
		if _, ok := lw.Node(ref); ok {
			return lw
		}
	}
	return nil
}
