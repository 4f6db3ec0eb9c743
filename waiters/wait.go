package waiters

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/waiters/condition"
)

// Request is one wait: a condition, what it is about, and how long to wait.
type Request struct {
	Condition *condition.Condition
	// Locator, instead of Condition, waits for the element it names to be found, one alone, and
	// to pass Checks: an action's wait for its target.
	Locator *condition.Locator
	Checks  Checks
	// App names the app; none means the whole desktop (a window of an app that is not running
	// yet, say). An app named by name that does not run yet is waited for within Timeout.
	App model.AppQuery
	// Window narrows the wait to one window of the app (id or title).
	Window string
	// GoneWindow is the window (id or title) a window_gone without a title waits to see go;
	// none means Window.
	GoneWindow string
	// Scope narrows element conditions to one element's subtree.
	Scope *observer.Scope
	// Snapshot resolves the condition's element ids (e12); a scope's snapshot does too.
	Snapshot string
	// Timeout ends the wait; 0 means DefaultTimeout, more than MaxTimeout is refused.
	Timeout time.Duration
	// Recheck is how often the wait's app is re-read whole for changes no notification
	// announced; 0 means DefaultRecheck, spaced out up to MaxRecheck while the re-reads find
	// nothing the notifications had not announced.
	Recheck time.Duration
}

// Result is how a wait ended; Trigger what made its condition hold (the wire types of bus).
type (
	Result  = api.WaitResult
	Trigger = api.WaitTrigger
)

// The outcomes of a wait.
const (
	Met     = api.WaitMet
	Timeout = api.WaitTimeout
	AppGone = api.WaitAppGone
	Failed  = api.WaitError
)

// wait is one wait in progress.
type wait struct {
	req Request
	// who asked (api.IdentityOf): the costly pool takes its waits identity by identity.
	who     string
	cond    *condition.Condition
	app     model.App // zero for a desktop wait
	start   time.Time
	targets map[string]model.NodeRef // eN of the condition -> handle
	scope   model.NodeRef
	// shares: the condition holds as soon as one element of its window (or of the whole app)
	// matches, so a change is looked at only where it touched, in a view all such waits of the
	// window share.
	shares bool
	once   sync.Once
	done   chan *Result
	// ended is set once the wait has its outcome: a round looks no further for it.
	ended atomic.Bool
	// seen says, should the wait end unmet, which of its windows it could not see whole.
	seen limitsSource
	// recheckAsked says the request gave its recheck period: it is kept, not spaced out.
	recheckAsked bool
	// loc is a locator's wait's state; nil for a condition's.
	loc *locating
	// ready is closed once a watcher has evaluated the wait: its windows are watched.
	ready     chan struct{}
	readyOnce sync.Once
	// appear is set while the wait's app, named by name, does not run yet (awaitApp).
	appear *appearing
	// costly says an evaluation took more than InlineBudget: the costly pool evaluates it from
	// then on; recheckWhole, that the pool saw it hold but not confirmed (as appWatch.unconfirmed).
	costly, recheckWhole atomic.Bool
	// lastCost is the steps its last evaluation on a watcher took: the cheapest go first.
	lastCost atomic.Int64
}

// listening marks the wait as watched.
func (w *wait) listening() { w.readyOnce.Do(func() { close(w.ready) }) }

// finish delivers the wait's result once.
func (w *wait) finish(r *Result) {
	w.once.Do(func() {
		w.ended.Store(true)
		if r.Outcome != Met {
			r.Limits = w.seen.limits()
		}
		r.Condition = w.cond.String()
		if w.loc != nil {
			r.Condition = w.loc.l.String()
			if r.Outcome == Timeout && r.Error == nil { // an app that never appeared says so itself
				w.loc.explain(r)
			}
		}
		r.ElapsedMS = float64(time.Since(w.start).Microseconds()) / 1000
		w.done <- r
	})
}

// Wait blocks until the condition holds, the timeout passes, the app goes, or ctx ends. armed,
// when not nil, is called once the wait listens: whatever happens after it is seen. A wait on
// an app named by name that does not run yet listens for its launch first (appear.go).
func (e *Engine) Wait(ctx context.Context, req Request, armed func()) (*Result, error) {
	w, err := e.prepare(ctx, req)
	if err != nil {
		return nil, err
	}
	timer := time.NewTimer(w.req.Timeout)
	defer timer.Stop()
	arm := sync.OnceFunc(func() {
		if armed != nil {
			armed()
		}
	})
	if w.appear != nil { // its app does not run yet: first wait for it to start
		if r := e.awaitApp(ctx, w, arm, timer.C); r != nil {
			return r, nil
		}
	}
	e.register(w)
	defer e.unregister(w)
	if w.app.PID == 0 {
		w.listening() // desktop-wide: every app's events reach it from now on
	}
	select { // armed only once the wait's windows are watched: nothing the caller does is missed
	case <-w.ready:
		arm()
	case r := <-w.done:
		return r, nil
	case <-timer.C:
		w.finish(&Result{Outcome: Timeout})
		return <-w.done, nil
	}
	select {
	case r := <-w.done:
		return r, nil
	case <-timer.C:
		w.finish(&Result{Outcome: Timeout})
	case <-ctx.Done():
		w.finish(e.interrupted(ctx))
	case <-e.ctx.Done():
		w.finish(e.interrupted(ctx))
	}
	return <-w.done, nil
}

// interrupted is the outcome of a wait that its caller (ctx) or the engine's end cut short.
func (e *Engine) interrupted(ctx context.Context) *Result {
	if err := ctx.Err(); err != nil {
		return &Result{Outcome: Failed, Error: model.AsError(err)}
	}
	return &Result{Outcome: Failed, Error: model.Errorf(model.CodeUnavailable, "Retry once the daemon is back.", "the daemon is stopping")}
}

// prepare checks a request and resolves what it names.
func (e *Engine) prepare(ctx context.Context, req Request) (*wait, error) {
	var loc *locating
	if req.Locator != nil {
		if req.Condition != nil || len(req.Locator.Steps) == 0 {
			return nil, model.Errorf(model.CodeBadRequest, "Give a condition or a locator.", "a wait has one condition or one locator")
		}
		for _, st := range req.Locator.Steps {
			if err := e.checkRoles(st.Cond); err != nil {
				return nil, err
			}
		}
		if req.Checks.Uncovered && req.App.PID == 0 && req.App.Name == "" {
			return nil, model.Errorf(model.CodeBadRequest, "Name the app (app or pid).", "a locator for physical input needs its app")
		}
		loc = &locating{l: req.Locator, checks: req.Checks}
		req.Condition = req.Locator.Element()
	}
	if req.Condition == nil {
		return nil, model.Errorf(model.CodeBadRequest, `Give a condition, e.g. text:"Saved".`, "no condition")
	}
	if err := req.Condition.Validate(); err != nil {
		return nil, err
	}
	if err := req.Condition.CheckElementsNamed(); err != nil { // an expect has aimed them at its target
		return nil, err
	}
	if err := e.checkRoles(req.Condition); err != nil {
		return nil, err
	}
	switch {
	case req.Timeout == 0:
		req.Timeout = DefaultTimeout
	case req.Timeout < 0 || req.Timeout > MaxTimeout:
		return nil, model.Errorf(model.CodeBadRequest, "Give a timeout between 1 ms and 5 minutes.",
			"timeout %v is out of range", req.Timeout).With("max_ms", MaxTimeout.Milliseconds())
	}
	explicit := req.Recheck != 0
	switch {
	case req.Recheck == 0:
		req.Recheck = DefaultRecheck
	case req.Recheck < MinRecheck:
		return nil, model.Errorf(model.CodeBadRequest, "Give a recheck period of at least 100 ms.",
			"recheck %v is too short", req.Recheck)
	}
	w := &wait{req: req, who: api.IdentityOf(ctx).Name, cond: req.Condition, loc: loc, recheckAsked: explicit, start: time.Now(), done: make(chan *Result, 1), ready: make(chan struct{}),
		targets: map[string]model.NodeRef{}}
	if err := e.resolveTargets(w); err != nil {
		return nil, err
	}
	if req.App.PID > 0 || req.App.Name != "" {
		app, err := e.o.FindApp(ctx, req.App)
		switch {
		case model.CodeOf(err) == model.CodeAppNotFound && w.mayAppear():
			w.appear = &appearing{missing: model.AsError(err)} // Wait waits for it to start
		case err != nil:
			return nil, err
		default:
			w.app = app
			if err := e.nameTheWindow(ctx, w); err != nil {
				return nil, err
			}
		}
	} else if req.Window != "" || req.GoneWindow != "" || len(w.targets) > 0 || req.Scope != nil {
		return nil, model.Errorf(model.CodeBadRequest, "Name the app (app or pid) the window, scope or element ids belong to.",
			"a window, scope or element ids need an app")
	}
	w.shares = loc == nil && w.cond.AppearsOnly() && w.scope == "" && w.cond.NeedsElements()
	for _, l := range w.cond.Leaves() {
		if l.Kind == condition.KindWindowGone && l.Title == nil && l.GoneWindow() == "" {
			return nil, model.Errorf(model.CodeBadRequest, `Name the window: window_gone:title="Report", or wait on an app's window (app and window).`,
				"window_gone needs a window: a title, or the wait's window")
		}
	}
	return w, nil
}

// nameTheWindow points window_gone leaves without a title at the wait's window (GoneWindow, else
// Window): the window the wait is about is the one that must go.
func (e *Engine) nameTheWindow(ctx context.Context, w *wait) error {
	want := w.req.GoneWindow
	if want == "" {
		want = w.req.Window
	}
	if want == "" || !w.cond.NeedsItsWindow() {
		return nil
	}
	_, wins, err := e.o.Windows(ctx, model.AppQuery{PID: w.app.PID})
	if err != nil {
		return err
	}
	win, err := observer.PickWindow(w.app, wins, want)
	if err != nil {
		return err
	}
	w.cond.AimAtWindow(win.ID)
	return nil
}

// resolveTargets turns the condition's element ids and the scope into handles, from the
// request's snapshot (or the scope's).
func (e *Engine) resolveTargets(w *wait) error {
	ids := w.cond.Targets()
	snapID := w.req.Snapshot
	if w.req.Scope != nil {
		if snapID == "" {
			snapID = w.req.Scope.Snapshot
		}
	}
	if len(ids) == 0 && w.req.Scope == nil && snapID == "" {
		return nil
	}
	if snapID == "" {
		return model.Errorf(model.CodeBadRequest, "Give the snapshot (snapshot) the element ids come from.",
			"element ids %v need a snapshot", ids)
	}
	snap, err := e.o.Store().Get(snapID)
	if err != nil {
		return err
	}
	for _, id := range ids {
		el, err := snap.Element(id)
		if err != nil {
			return err
		}
		w.targets[id] = el.Ref
	}
	if w.req.Scope != nil {
		scopeSnap, err := e.o.Store().Get(w.req.Scope.Snapshot)
		if err != nil {
			return err
		}
		el, err := scopeSnap.Element(w.req.Scope.Element)
		if err != nil {
			return err
		}
		w.scope = el.Ref
	}
	if w.req.App.PID == 0 && w.req.App.Name == "" {
		w.req.App.PID = snap.App.PID // the snapshot names the app
	}
	return nil
}

// register hands the wait to its app's watcher (or to every watcher, for a desktop wait).
func (e *Engine) register(w *wait) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if w.app.PID == 0 {
		e.desktop[w] = true
		for _, aw := range e.apps {
			aw.add(w)
		}
		e.watchDesktopLocked()
		return
	}
	e.watchLocked(w.app.PID).add(w)
}

// unregister forgets a finished wait; a watcher left without waits stops.
func (e *Engine) unregister(w *wait) {
	e.mu.Lock()
	delete(e.desktop, w)
	var idle []*appWatch
	for _, aw := range e.apps {
		if aw.remove(w) {
			idle = append(idle, aw)
		}
	}
	e.mu.Unlock()
	for _, aw := range idle {
		e.release(aw)
	}
}
