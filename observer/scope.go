package observer

import (
	"context"
	"math"
	"strings"

	"github.com/axbus/axbus/model"
)

// Scope names a subtree by an element of an earlier snapshot: "s_1a2b3c:e12".
type Scope struct {
	Snapshot string
	Element  string
}

func (s Scope) String() string { return s.Snapshot + ":" + s.Element }

// ParseScope reads "SNAPSHOT:ELEMENT".
func ParseScope(s string) (Scope, error) {
	snap, el, ok := strings.Cut(s, ":")
	if _, valid := model.ParseElementID(el); !ok || !strings.HasPrefix(snap, "s_") || !valid {
		return Scope{}, model.Errorf(model.CodeBadRequest, `A scope looks like "s_1a2b3c4d5e6f:e12": a snapshot id and one of its element ids.`,
			"%q is not a scope", s)
	}
	return Scope{Snapshot: snap, Element: el}, nil
}

// identity is what a scope is found again by: the element's role, depth, label, title and
// identifier. Bounds and the ordinal among identical matches then tell identical ones apart.
type identity struct {
	role                    model.Role
	depth                   int
	label, name, identifier string
}

func identityOf(w *Walked) identity {
	return identity{role: w.Role, depth: w.Depth, label: w.Label, name: w.Name, identifier: w.Identifier}
}

func sameBounds(a, b *model.Rect) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	const eps = 0.5
	return math.Abs(a.X-b.X) <= eps && math.Abs(a.Y-b.Y) <= eps && math.Abs(a.W-b.W) <= eps && math.Abs(a.H-b.H) <= eps
}

// Refind finds the element old (of snapshot was) in a fresh walk. It refuses, each with its own
// code, an element that is gone or renamed (SCOPE_CHANGED), that moved (SCOPE_MOVED), or whose
// identical twins make the choice a guess (SCOPE_AMBIGUOUS).
func Refind(was *Snapshot, old *Walked, now *WalkResult, scope Scope) (int, error) {
	id := identityOf(old)
	var candidates, exact []int
	for i := range now.Nodes {
		if identityOf(&now.Nodes[i]) == id {
			candidates = append(candidates, i)
			if sameBounds(now.Nodes[i].Bounds, old.Bounds) {
				exact = append(exact, i)
			}
		}
	}
	// The ordinal among the identical elements at the same place, as the old snapshot saw them.
	ordinal, twins := 0, 0
	for i := range was.Walk.Nodes {
		w := &was.Walk.Nodes[i]
		if identityOf(w) == id && sameBounds(w.Bounds, old.Bounds) {
			if w.Index < old.Index {
				ordinal++
			}
			twins++
		}
	}
	switch {
	case len(exact) > 0 && len(exact) == twins:
		return exact[ordinal], nil
	case len(exact) > 0:
		return 0, model.Errorf(model.CodeScopeAmbiguous, "Inspect again and scope into an element of the new snapshot.",
			"scope %s: %d identical elements are where %d was; which one is meant cannot be told", scope, len(exact), twins).
			With("matches", elementIDs(exact))
	case len(candidates) == 1:
		n := &now.Nodes[candidates[0]]
		return 0, model.Errorf(model.CodeScopeMoved, "The element moved: inspect again and scope into it from the new snapshot.",
			"scope %s: the element moved", scope).With("was", old.Bounds).With("now", n.Bounds).With("candidate", model.ElementID(n.Index))
	case len(candidates) > 1:
		return 0, model.Errorf(model.CodeScopeAmbiguous, "Inspect again and scope into an element of the new snapshot.",
			"scope %s: the element is not where it was and %d identical elements could be it", scope, len(candidates)).
			With("matches", elementIDs(candidates))
	}
	e := model.Errorf(model.CodeScopeChanged, "The element changed or is gone: inspect again and scope into what is there now.",
		"scope %s: no element with role %s, name %q, label %q and identifier %q at depth %d any more", scope,
		id.role, id.name, id.label, id.identifier, id.depth)
	for i := range now.Nodes { // say what sits there instead, when something does
		n := &now.Nodes[i]
		if n.Role == id.role && n.Depth == id.depth && sameBounds(n.Bounds, old.Bounds) {
			e.With("now", map[string]any{"element": model.ElementID(n.Index), "name": n.Name, "label": n.Label, "identifier": n.Identifier})
			break
		}
	}
	return 0, e
}

func elementIDs(indices []int) []string {
	out := make([]string, len(indices))
	for i, n := range indices {
		out[i] = model.ElementID(n)
	}
	return out
}

// scopedInspect walks the scope's window again with the wide budget, finds the scope's element
// in it and lists that element's subtree. The new snapshot holds the whole walk, so every id it
// lists is actionable; it is stored only when the scope was found.
func (o *Observer) scopedInspect(ctx context.Context, scope Scope) (*model.Inspection, error) {
	was, err := o.store.GetFor(ctx, scope.Snapshot)
	if err != nil {
		return nil, err
	}
	old, err := was.Element(scope.Element)
	if err != nil {
		return nil, err
	}
	app, win, err := o.SameWindow(ctx, was)
	if err != nil {
		return nil, err
	}
	budget := model.WideBudget()
	walk := Walk(ctx, o.backend, win.Ref, WalkOptions{Budget: budget})
	root, err := Refind(was, old, &walk, scope)
	if err != nil {
		return nil, err
	}
	snap := o.newSnapshot(app, win, budget, walk)
	snap.Root, snap.Owner = root, ownerName(ctx)
	o.store.Put(snap)
	out := snap.Listing(snap.Subtree(root))
	out.Scope = &model.ScopeInfo{From: scope.String(), Element: model.ElementID(root)}
	return out, nil
}

// SameWindow finds the app instance and window of an earlier snapshot, refusing another
// generation of the app (SCOPE_GENERATION) and a window that is gone (SCOPE_CHANGED).
func (o *Observer) SameWindow(ctx context.Context, was *Snapshot) (model.App, model.Window, error) {
	app, wins, err := o.Windows(ctx, model.AppQuery{PID: was.App.PID})
	if model.CodeOf(err) == model.CodeAppNotFound || (err == nil && app.Generation != was.App.Generation) {
		return model.App{}, model.Window{}, model.Errorf(model.CodeScopeGeneration, "The app quit or restarted since that snapshot: inspect it again.",
			"%s (pid %d) of snapshot %s is not running any more", was.App.Name, was.App.PID, was.ID).
			With("generation", was.App.Generation)
	}
	if err != nil {
		return model.App{}, model.Window{}, err
	}
	for _, w := range wins {
		if w.ID == was.Window.ID {
			return app, w, nil
		}
	}
	return model.App{}, model.Window{}, model.Errorf(model.CodeScopeChanged, "The window closed: inspect the app again.",
		"window %q of snapshot %s is gone", was.Window.Title, was.ID).With("window", was.Window.ID)
}
