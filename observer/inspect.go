package observer

import (
	"context"

	"github.com/axbus/axbus/model"
)

// InspectRequest asks for one inspection of an app's window, or of one element's subtree.
type InspectRequest struct {
	App model.AppQuery
	// Window is a window id or title; empty means the focused window, else the first.
	Window string
	// Scope, when set, lists only the subtree of an element of an earlier snapshot, found again
	// in a fresh walk of its window with the wide budget; App and Window are then taken from it.
	Scope *Scope
}

// Inspect walks a window with the unscoped budget, listing what is on screen, and stores the
// walk as a snapshot; with a scope it lists one element's subtree from a wide walk instead.
func (o *Observer) Inspect(ctx context.Context, req InspectRequest) (*model.Inspection, error) {
	if req.Scope != nil {
		return o.scopedInspect(ctx, *req.Scope)
	}
	app, win, err := o.Window(ctx, req.App, req.Window)
	if err != nil {
		return nil, err
	}
	budget := model.UnscopedBudget()
	focus, _ := o.backend.FocusPath(ctx, app.PID) // best effort: without it the focused element may be clipped
	walk := Walk(ctx, o.backend, win.Ref, WalkOptions{Budget: budget, VisibleOnly: true, Keep: focus})
	if len(walk.Nodes) == 0 {
		return nil, model.Errorf(model.CodeAppNotResponding, "The app did not answer; check that it is alive (axbus apps) and retry.",
			"could not read window %q of %s", win.Title, app.Name).With("pid", app.PID)
	}
	snap := o.StoreWalk(ctx, app, win, budget, walk)
	return snap.Listing(snap.Subtree(0)), nil
}

// StoreWalk stores a snapshot of walk, a walk of win of app with budget, for ctx's requester
// (see Owner), and returns it.
func (o *Observer) StoreWalk(ctx context.Context, app model.App, win model.Window, budget model.Budget, walk WalkResult) *Snapshot {
	snap := o.newSnapshot(app, win, budget, walk)
	snap.Owner = ownerName(ctx)
	o.store.Put(snap)
	return snap
}

// newSnapshot makes a snapshot of a walk. The children's handles are dropped: the walk's
// parent indices keep the tree, and a snapshot of 4,000 elements stays small.
func (o *Observer) newSnapshot(app model.App, win model.Window, budget model.Budget, walk WalkResult) *Snapshot {
	for i := range walk.Nodes {
		walk.Nodes[i].Children = nil
	}
	return &Snapshot{ID: NewSnapshotID(), App: app.Ref(), Window: win.RefOf(), Created: o.now(), Budget: budget, Walk: walk}
}

// Listing renders the elements at the given pre-order indices.
func (s *Snapshot) Listing(indices []int) *model.Inspection {
	out := &model.Inspection{
		SnapshotID: s.ID, App: s.App, Window: s.Window, Created: s.Created, Budget: s.Budget,
		Truncated: len(s.Walk.Truncation) > 0, Truncation: s.Walk.Truncation, Incomplete: s.Walk.Incomplete,
		OffscreenOmitted: s.Walk.OffscreenOmitted, Walked: len(s.Walk.Nodes),
		Elements: make([]model.Element, 0, len(indices)),
	}
	for _, i := range indices {
		out.Elements = append(out.Elements, s.Walk.Nodes[i].Listed())
	}
	return out
}

// Listed is w as a listing shows it: its id, its parent's, and a secure field's text left out.
func (w *Walked) Listed() model.Element {
	e := model.Element{
		ID: model.ElementID(w.Index), Depth: w.Depth, Role: w.Role, PlatformRole: w.PlatformRole, Subrole: w.Subrole,
		Name: w.Name, Label: w.Label, Description: w.Description, Identifier: w.Identifier, Bounds: w.Bounds,
		States: w.States, Actions: w.Actions, Secure: w.Secure, Children: w.ChildCount,
	}
	if w.Parent >= 0 {
		e.Parent = model.ElementID(w.Parent)
	}
	if !w.Secure { // a backend never reads a secure field's text; this is the second lock
		if w.HasValue {
			v := w.Value
			e.Value = &v
		}
		if w.Text != w.Name {
			e.Text = w.Text
		}
	}
	return e
}

// SnapshotOf stores a snapshot of ref's own subtree, read from the app (at most ListingRootLimit
// elements), and returns its listing, scoped at ref, and ref as listed. It is for an element the
// window's tree no longer holds (a page of a stack that is not shown): it still exists, and a
// reply about it needs a snapshot that lists it.
func (o *Observer) SnapshotOf(ctx context.Context, app model.App, win model.Window, ref model.NodeRef) (*model.Inspection, *model.Element, error) {
	return o.SubtreeSnapshot(app, win, Walk(ctx, o.backend, ref, WalkOptions{Budget: SubtreeBudget()}), ref)
}
