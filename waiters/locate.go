package waiters

import (
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/waiters/condition"
)

// Checks are what the element a locator finds must be, besides found, before an action acts on
// it (actionability). A wait for a locator asks for none of them: it holds once one is found.
type Checks struct {
	// Unique: only one element matches (strict); without it the first in tree order is taken.
	Unique bool
	// Visible: it has bounds, and they show within its visible clip (the window, narrowed at
	// scroll and web areas).
	Visible bool
	// Enabled: it is not disabled (model.States.Disabled: one that reports no state passes).
	Enabled bool
	// Stable: it has stopped moving: no layout change of it or its ancestors, and no change of
	// its bounds between two looks, for Settle.
	Stable bool
	// Uncovered: the element at its centre point is it or inside it, as the platform hit-tests
	// (physical input lands there). Needs a backend that is an observer.HitTester.
	Uncovered bool
}

// Settle is how long an element must keep still to count as stopped. It is longer than a frame
// (an animation moves an element every 16 ms) and short beside an action.
const Settle = 50 * time.Millisecond

// The actionability checks, as a locator's wait reports the one that failed last.
const (
	CheckNotFound   = "not_found"
	CheckAmbiguous  = "ambiguous"
	CheckNotVisible = "not_visible"
	CheckDisabled   = "disabled"
	CheckMoving     = "moving"
	CheckCovered    = "covered"
)

// checkHints are the suggestions of a locator's wait that timed out, by the check that failed.
var checkHints = map[string]string{
	CheckNotFound:   "Check the locator against what is there (axbus inspect --find LOCATOR), or wait longer (--timeout).",
	CheckNotVisible: "Scroll it into view first (axbus scroll_to), or raise its window.",
	CheckDisabled:   "Do what enables it first, or wait longer (--timeout).",
	CheckMoving:     "It kept moving: wait for the animation to end, or wait longer (--timeout).",
	CheckCovered:    "Close or move what covers it, or act without physical input (--policy headless).",
}

// maxConfirm bounds the matches read again to confirm a locator's answer: past it, more than
// one match is certain.
const maxConfirm = 8

// locating is the state of a locator's wait: what it found last and why it is not done yet.
// Watchers of a desktop-wide wait may evaluate it at once, hence the lock.
type locating struct {
	l      *condition.Locator
	checks Checks

	mu         sync.Mutex
	failed     string          // the check that failed last
	candidates []api.Candidate // the matches, when there were several
	ref        model.NodeRef   // the element last looked at
	bounds     *model.Rect     // its bounds then
	movedAt    time.Time       // when its bounds were last seen to change
	due        time.Time       // when a re-evaluation is already set for
	// ambiguousSince is when several elements were first seen to match, at the last look.
	ambiguousSince time.Time
}

// checkLocate evaluates a locator's wait against the copy v; the matches are read again before
// any answer, so that a stale copy never resolves it.
func (aw *appWatch) checkLocate(ctx context.Context, w *wait, trigger *Trigger, v *view) {
	delete(aw.unconfirmed, w) // every evaluation looks at it whole
	loc := w.loc
	mt := newMeter(LocatorBudget, w)
	candidates := loc.l.Find(v.trees(), mt)
	if mt.Done() {
		if mt.Over() {
			w.finish(tooCostly(LocatorBudget))
		}
		return
	}
	hits := aw.confirm(ctx, loc.l, candidates)
	loc.mu.Lock()
	defer loc.mu.Unlock()
	switch {
	case len(hits) == 0:
		loc.failed, loc.ambiguousSince = CheckNotFound, time.Time{}
		return
	case len(hits) > 1 && loc.checks.Unique:
		loc.failed, loc.candidates = CheckAmbiguous, candidatesOf(hits)
		// A window being changed may show the old element and the new for a moment (GTK3
		// announces a removal late): only two looks Settle apart make it ambiguous.
		if loc.ambiguousSince.IsZero() {
			loc.ambiguousSince = time.Now()
		}
		if d := Settle - time.Since(loc.ambiguousSince); d > 0 {
			aw.later(loc, w, d)
			return
		}
		w.finish(&Result{Outcome: Failed, App: refOf(aw.app), Error: model.Errorf(model.CodeAmbiguousTarget,
			"Narrow the locator (add name=, role= or >> within), or pick one with nth=N.",
			"%d elements match %s", len(hits), loc.l).With("check", CheckAmbiguous).With("candidates", loc.candidates)})
		return
	}
	loc.ambiguousSince = time.Time{}
	h := hits[0]
	lw := h.Tree.(*live.Window)
	n := &h.Node
	now := time.Now()
	switch {
	case loc.checks.Visible && !visible(n, lw.Clip(n.Ref)):
		loc.failed = CheckNotVisible
		return
	case loc.checks.Enabled && n.States.Disabled():
		loc.failed = CheckDisabled
		return
	}
	if loc.checks.Stable {
		if d := aw.settling(loc, lw, n, now); d > 0 {
			loc.failed = CheckMoving
			aw.later(loc, w, d)
			return
		}
	}
	if loc.checks.Uncovered && aw.covered(ctx, lw, n) {
		loc.failed = CheckCovered
		aw.later(loc, w, w.req.Recheck) // what covers it may go without a word
		return
	}
	insp, el, err := lw.Snapshot(ctx, n.Ref)
	if err != nil {
		return // gone meanwhile: the next event decides
	}
	wr := lw.Window().RefOf()
	w.finish(&Result{Outcome: Met, Trigger: trigger, App: refOf(aw.app), Snapshot: api.NewListing(insp), Match: el, Window: &wr})
}

// confirm reads the matches again (the first maxConfirm of them) and keeps those that still
// match, as they are now.
func (aw *appWatch) confirm(ctx context.Context, l *condition.Locator, hits []condition.Found) []condition.Found {
	if len(hits) == 0 {
		return nil
	}
	n := min(len(hits), maxConfirm)
	refs := make([]model.NodeRef, n)
	for i := range n {
		refs[i] = hits[i].Node.Ref
	}
	fresh := aw.e.o.Backend().Read(ctx, refs)
	kept := make([]condition.Found, 0, len(hits))
	for i, h := range hits {
		if i < n {
			if fresh[i].Err != nil || !l.Element().MatchesElement(&fresh[i]) {
				continue
			}
			h.Node = fresh[i]
		}
		kept = append(kept, h)
	}
	// An element taken out of its window may stay readable, with no bounds, until the events
	// that say so arrive (GTK3): beside one that shows, it is not a second match.
	return kept
}

// visible reports whether n shows within clip.
func visible(n *model.Node, clip *model.Rect) bool {
	if n.Bounds == nil || n.Bounds.Empty() || n.Offscreen {
		return false
	}
	return clip == nil || !n.Bounds.Intersect(*clip).Empty()
}

// settling is how long h must still keep still: its bounds changed since the last look, or a
// layout event named it or an ancestor, or the watcher has not listened long enough to know.
func (aw *appWatch) settling(loc *locating, lw *live.Window, n *model.Node, now time.Time) time.Duration {
	if loc.ref == n.Ref && !sameRect(loc.bounds, n.Bounds) {
		loc.movedAt = now
	}
	loc.ref, loc.bounds = n.Ref, n.Bounds
	last := latest(latest(aw.lastLayout(lw.PathTo(n.Ref)), loc.movedAt), aw.since)
	return Settle - now.Sub(last)
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func sameRect(a, b *model.Rect) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// covered reports whether physical input at n's centre would land on something else.
func (aw *appWatch) covered(ctx context.Context, lw *live.Window, n *model.Node) bool {
	ht, ok := aw.e.o.Backend().(observer.HitTester)
	if !ok || n.Bounds == nil {
		return false // nothing to ask: the platform cannot tell
	}
	x, y := n.Bounds.Center()
	path, err := ht.HitPath(ctx, lw.Window().Ref, x, y)
	if err != nil {
		return false // the hit test failed, not the element: the action decides
	}
	for _, ref := range path {
		if ref == n.Ref {
			return false
		}
	}
	return true
}

// later evaluates w again after d, unless a re-evaluation is already due by then: the end of a
// settle period or a covered element's recheck, which no event may announce.
func (aw *appWatch) later(loc *locating, w *wait, d time.Duration) {
	at := time.Now().Add(d)
	if !loc.due.IsZero() && loc.due.After(time.Now()) && !loc.due.After(at) {
		return
	}
	loc.due = at
	time.AfterFunc(d, func() {
		aw.mu.Lock()
		aw.due = append(aw.due, w)
		aw.mu.Unlock()
		aw.nudge()
	})
}

// candidatesOf lists matches for an AMBIGUOUS_TARGET.
func candidatesOf(hits []condition.Found) []api.Candidate {
	out := make([]api.Candidate, len(hits))
	for i, h := range hits {
		out[i] = api.Candidate{Nth: i + 1, Role: h.Node.Role, Name: h.Node.Name, Bounds: h.Node.Bounds}
	}
	return out
}

// explain gives a locator's wait that timed out the check that failed last.
func (loc *locating) explain(r *Result) {
	loc.mu.Lock()
	defer loc.mu.Unlock()
	check := loc.failed
	if check == "" {
		check = CheckNotFound
	}
	r.Error = model.Errorf(model.CodeTimeout, checkHints[check], "no element for %s was actionable in time: %s", loc.l, check).
		With("check", check)
}

// layoutMemory is how long the watcher remembers layout events: past Settle they no longer matter.
const layoutMemory = time.Second

// noteLayout remembers when a layout event named ref; aw.mu is held.
func (aw *appWatch) noteLayout(ref model.NodeRef, at time.Time) {
	if len(aw.moved) > 4096 {
		for r, t := range aw.moved {
			if at.Sub(t) > layoutMemory {
				delete(aw.moved, r)
			}
		}
	}
	aw.moved[ref] = at
}

// lastLayout is the latest layout event on any of refs.
func (aw *appWatch) lastLayout(refs []model.NodeRef) time.Time {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	var last time.Time
	for _, r := range refs {
		last = latest(last, aw.moved[r])
	}
	return last
}
