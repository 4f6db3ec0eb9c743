package observer

import (
	"context"
	"time"
)

// InspectRequest asks for one inspection of an app's window, or of one element's subtree.
type InspectRequest struct {
	App AppQuery
	// Window is a window id or title; empty means the focused window, else the first.
	Window string
	// Scope, when set, lists only the subtree of an element of an earlier snapshot, found again
	// in a fresh walk of its window with the wide budget; App and Window are then taken from it.
	Scope *Scope
}

// Inspection is the reply to an inspection: the snapshot's id and what it lists.
type Inspection struct {
	SnapshotID       string       `json:"snapshot_id"`
	App              AppRef       `json:"app"`
	Window           WindowRef    `json:"window"`
	Created          time.Time    `json:"created"`
	Budget           Budget       `json:"budget"`
	Truncated        bool         `json:"truncated"`
	Truncation       []Truncation `json:"truncation,omitempty"`
	Incomplete       bool         `json:"incomplete,omitempty"`
	OffscreenOmitted int          `json:"offscreen_omitted"`
	// Scope names the element the listing is the subtree of, when it was scoped.
	Scope *ScopeInfo `json:"scope,omitempty"`
	// Walked counts the elements the snapshot holds; Elements lists those of the listed subtree.
	Walked int `json:"walked"`
	// RecognizedText is the window's text recognised from its pixels, when asked (ocr).
	RecognizedText *RecognizedText `json:"recognized_text,omitempty"`
	Elements       []Element       `json:"elements"` // the last field: AppendJSON writes it
}

// Element is one listed element: a flat pre-order list whose parent and depth give the tree.
type Element struct {
	ID           string   `json:"id"`
	Parent       string   `json:"parent,omitempty"`
	Depth        int      `json:"depth"`
	Role         Role     `json:"role"`
	PlatformRole string   `json:"platform_role,omitempty"`
	Subrole      string   `json:"subrole,omitempty"`
	Name         string   `json:"name,omitempty"`
	Label        string   `json:"label,omitempty"`
	Description  string   `json:"description,omitempty"`
	Value        *string  `json:"value,omitempty"`
	Text         string   `json:"text,omitempty"`
	Identifier   string   `json:"identifier,omitempty"`
	Bounds       *Rect    `json:"bounds,omitempty"`
	States       States   `json:"states,omitempty"`
	Actions      []string `json:"actions,omitempty"`
	Secure       bool     `json:"secure,omitempty"`
	Children     int      `json:"children,omitempty"`
}

// Inspect walks a window with the unscoped budget, listing what is on screen, and stores the
// walk as a snapshot; with a scope it lists one element's subtree from a wide walk instead.
func (o *Observer) Inspect(ctx context.Context, req InspectRequest) (*Inspection, error) {
	if req.Scope != nil {
		return o.scopedInspect(ctx, *req.Scope)
	}
	app, win, err := o.Window(ctx, req.App, req.Window)
	if err != nil {
		return nil, err
	}
	budget := UnscopedBudget()
	focus, _ := o.backend.FocusPath(ctx, app.PID) // best effort: without it the focused element may be clipped
	walk := Walk(ctx, o.backend, win.Ref, WalkOptions{Budget: budget, VisibleOnly: true, Keep: focus})
	if len(walk.Nodes) == 0 {
		return nil, Errorf(CodeAppNotResponding, "The app did not answer; check that it is alive (axbus apps) and retry.",
			"could not read window %q of %s", win.Title, app.Name).With("pid", app.PID)
	}
	snap := o.StoreWalk(ctx, app, win, budget, walk)
	return snap.Listing(snap.Subtree(0)), nil
}

// StoreWalk stores a snapshot of walk, a walk of win of app with budget, for ctx's requester
// (see Owner), and returns it.
func (o *Observer) StoreWalk(ctx context.Context, app App, win Window, budget Budget, walk WalkResult) *Snapshot {
	snap := o.newSnapshot(app, win, budget, walk)
	snap.Owner = ownerName(ctx)
	o.store.Put(snap)
	return snap
}

// newSnapshot makes a snapshot of a walk. The children's handles are dropped: the walk's
// parent indices keep the tree, and a snapshot of 4,000 elements stays small.
func (o *Observer) newSnapshot(app App, win Window, budget Budget, walk WalkResult) *Snapshot {
	for i := range walk.Nodes {
		walk.Nodes[i].Children = nil
	}
	return &Snapshot{ID: NewSnapshotID(), App: app.Ref(), Window: win.RefOf(), Created: o.now(), Budget: budget, Walk: walk}
}

// Listing renders the elements at the given pre-order indices.
func (s *Snapshot) Listing(indices []int) *Inspection {
	out := &Inspection{
		SnapshotID: s.ID, App: s.App, Window: s.Window, Created: s.Created, Budget: s.Budget,
		Truncated: len(s.Walk.Truncation) > 0, Truncation: s.Walk.Truncation, Incomplete: s.Walk.Incomplete,
		OffscreenOmitted: s.Walk.OffscreenOmitted, Walked: len(s.Walk.Nodes),
		Elements: make([]Element, 0, len(indices)),
	}
	for _, i := range indices {
		out.Elements = append(out.Elements, s.Walk.Nodes[i].Listed())
	}
	return out
}

// Listed is w as a listing shows it: its id, its parent's, and a secure field's text left out.
func (w *Walked) Listed() Element {
	e := Element{
		ID: ElementID(w.Index), Depth: w.Depth, Role: w.Role, PlatformRole: w.PlatformRole, Subrole: w.Subrole,
		Name: w.Name, Label: w.Label, Description: w.Description, Identifier: w.Identifier, Bounds: w.Bounds,
		States: w.States, Actions: w.Actions, Secure: w.Secure, Children: w.ChildCount,
	}
	if w.Parent >= 0 {
		e.Parent = ElementID(w.Parent)
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
func (o *Observer) SnapshotOf(ctx context.Context, app App, win Window, ref NodeRef) (*Inspection, *Element, error) {
	return o.SubtreeSnapshot(app, win, Walk(ctx, o.backend, ref, WalkOptions{Budget: SubtreeBudget()}), ref)
}
