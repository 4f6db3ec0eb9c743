package commands

import (
	"context"
	"math"
	"slices"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// maxDrift is how far an element may have moved since its snapshot and still be acted on.
const maxDrift = 50

// target is an element an action resolved, live.
type target struct {
	snap *observer.Snapshot
	was  *observer.Walked // as the snapshot saw it
	app  model.App
	ref  model.NodeRef
	node model.Node // as read now
	// path is the element's ancestors, its window first: where it must show (see actionable).
	path []model.NodeRef
	info api.ActionTarget
	// shift is how far its window moved since the snapshot: an element moves with its window.
	shift [2]float64
}

// resolve finds the element a snapshot names in the live tree: the same element if it is still
// there and has not moved more than maxDrift; otherwise the one element of the same role and
// name within maxDrift of where it was, in the same app instance. The snapshot must be the
// requester's (or its locator's wait's, which becomes the requester's); an admin may use any.
func (e *Engine) resolve(ctx context.Context, scope observer.Scope) (*target, error) {
	snap, err := e.o.Store().GetFor(ctx, scope.Snapshot)
	if err != nil {
		return nil, err
	}
	was, err := snap.Element(scope.Element)
	if err != nil {
		return nil, err
	}
	app, err := e.o.FindApp(ctx, model.AppQuery{PID: snap.App.PID})
	if model.CodeOf(err) == model.CodeAppNotFound || (err == nil && app.Generation != snap.App.Generation) {
		return nil, model.Errorf(model.CodeStaleRef, "The app quit or restarted since that snapshot: inspect it again.",
			"%s (pid %d) of snapshot %s is not running any more", snap.App.Name, snap.App.PID, snap.ID).
			With("generation", snap.App.Generation)
	}
	if err != nil {
		return nil, err
	}
	t := &target{snap: snap, was: was, app: app}
	t.info = api.ActionTarget{Snapshot: snap.ID, Element: scope.Element, Role: was.Role, Name: was.Name, Bounds: was.Bounds}
	rctx, cancel := context.WithTimeout(ctx, CallTimeout)
	read := e.o.Backend().Read(rctx, []model.NodeRef{was.Ref, snap.Walk.Nodes[0].Ref}) // and its window: it may have moved
	cancel()
	now := read[0]
	if read[1].Err == nil {
		t.shift = shiftOf(snap.Walk.Nodes[0].Bounds, read[1].Bounds)
	}
	if now.Err == nil && now.Role == was.Role && now.Name == was.Name {
		if d := t.drift(now.Bounds); d <= maxDrift {
			t.path = ancestors(snap.Walk.Nodes, was.Index)
			return t.at(now, d), nil
		}
	}
	if c := model.CodeOf(now.Err); c == model.CodeAppGone || c == model.CodeAppNotResponding {
		return nil, now.Err
	}
	return e.refind(ctx, t)
}

// at settles the target on node, which moved by d.
func (t *target) at(node model.Node, d float64) *target {
	t.ref, t.node = node.Ref, node
	t.info.Bounds = node.Bounds
	if d > 0.5 {
		t.info.Recovered, t.info.MovedBy = true, math.Round(d*10)/10
	}
	return t
}

// refind looks for the element in a fresh walk of its window.
func (e *Engine) refind(ctx context.Context, t *target) (*target, error) {
	_, wins, err := e.o.Windows(ctx, model.AppQuery{PID: t.app.PID})
	if err != nil {
		return nil, err
	}
	var win *model.Window
	for i := range wins {
		if wins[i].ID == t.snap.Window.ID {
			win = &wins[i]
		}
	}
	stale := model.Errorf(model.CodeStaleRef, "Inspect again and act on an element of the new snapshot.",
		"element %s of snapshot %s (%s %q) is gone or moved more than %d", t.info.Element, t.snap.ID, t.was.Role, t.was.Name, maxDrift)
	if win == nil {
		return nil, stale.With("reason", "the window closed")
	}
	walk := observer.Walk(ctx, e.o.Backend(), win.Ref, observer.WalkOptions{Budget: model.WideBudget()})
	if len(walk.Nodes) > 0 {
		t.shift = shiftOf(t.snap.Walk.Nodes[0].Bounds, walk.Nodes[0].Bounds)
	}
	var found []observer.Walked
	for _, n := range walk.Nodes {
		if n.Role == t.was.Role && n.Name == t.was.Name && t.drift(n.Bounds) <= maxDrift {
			found = append(found, n)
		}
	}
	switch len(found) {
	case 0:
		return nil, stale
	case 1:
		t.path = ancestors(walk.Nodes, found[0].Index)
		return t.at(found[0].Node, t.drift(found[0].Bounds)), nil
	}
	return nil, model.Errorf(model.CodeAmbiguousTarget, "Inspect again and pick one of them from the new snapshot.",
		"%d elements like %s %q are within %d of where it was", len(found), t.was.Role, t.was.Name, maxDrift).
		With("candidates", len(found))
}

// ancestors lists the handles of element i's ancestors in a walk, its window first.
func ancestors(nodes []observer.Walked, i int) []model.NodeRef {
	var out []model.NodeRef
	for p := nodes[i].Parent; p >= 0; p = nodes[p].Parent {
		out = append(out, nodes[p].Ref)
	}
	slices.Reverse(out)
	return out
}

// drift is how far the element moved within its window: from where the snapshot saw it, moved
// as its window moved, to now.
func (t *target) drift(now *model.Rect) float64 {
	was := t.was.Bounds
	if was != nil {
		moved := *was
		moved.X, moved.Y = moved.X+t.shift[0], moved.Y+t.shift[1]
		was = &moved
	}
	return drift(was, now)
}

// shiftOf is how far a window moved from was to now (none when either has no bounds).
func shiftOf(was, now *model.Rect) [2]float64 {
	if was == nil || now == nil {
		return [2]float64{}
	}
	return [2]float64{now.X - was.X, now.Y - was.Y}
}

// drift is how far apart two bounds are (the larger of the distances of their corners); an
// element without bounds on either side has not moved as far as anyone can tell.
func drift(a, b *model.Rect) float64 {
	if a == nil || b == nil {
		return 0
	}
	return max(math.Abs(a.X-b.X), math.Abs(a.Y-b.Y), math.Abs(a.X+a.W-b.X-b.W), math.Abs(a.Y+a.H-b.Y-b.H))
}
