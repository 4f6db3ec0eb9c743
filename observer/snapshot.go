package observer

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"time"

	"github.com/axbus/axbus/model"
)

// Snapshot is the result of one inspection: the whole walk that was traversed, so that every
// listed element id stays actionable for the snapshot's lifetime.
type Snapshot struct {
	ID      string
	App     model.AppRef
	Window  model.WindowRef
	Created time.Time
	Budget  model.Budget
	Walk    WalkResult
	// Root is the index of the listed subtree's root: 0 for a whole window, the scope's element
	// for a scoped inspection.
	Root int
	// Owner is the identity whose request made it ("" : the daemon's own work, until a wait's
	// reply hands it to its requester): the store keeps it under its owner's quota, and other
	// identities may not use it (Store.GetFor).
	Owner string
	bytes int
}

// NewSnapshotID returns a fresh random snapshot id.
func NewSnapshotID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "s_" + hex.EncodeToString(b[:])
}

// Element returns the walked element with the given id.
func (s *Snapshot) Element(id string) (*Walked, error) {
	i, ok := model.ParseElementID(id)
	if !ok {
		return nil, model.Errorf(model.CodeBadRequest, `Element ids look like "e12"; take one from the snapshot's listing.`,
			"%q is not an element id", id)
	}
	if i >= len(s.Walk.Nodes) {
		return nil, model.Errorf(model.CodeElementNotFound, "Inspect again and take an id from the new listing.",
			"snapshot %s has no element %s (it holds e0 to e%d)", s.ID, id, len(s.Walk.Nodes)-1).
			With("snapshot_id", s.ID)
	}
	return &s.Walk.Nodes[i], nil
}

// Subtree returns the pre-order indices of the element at index root and its descendants.
// Descendants follow their ancestor contiguously in pre-order.
func (s *Snapshot) Subtree(root int) []int {
	nodes := s.Walk.Nodes
	if root < 0 || root >= len(nodes) {
		return nil
	}
	out := []int{root}
	for i := root + 1; i < len(nodes) && nodes[i].Depth > nodes[root].Depth; i++ {
		out = append(out, i)
	}
	return out
}

// size estimates the snapshot's memory: the store bounds the sum.
func (s *Snapshot) size() int {
	n := 512
	for i := range s.Walk.Nodes {
		w := &s.Walk.Nodes[i].Node
		n += 160 + len(w.Ref) + len(w.PlatformRole) + len(w.Subrole) + len(w.Name) + len(w.Description) +
			len(w.Label) + len(w.Identifier) + len(w.Value) + len(w.Text) + 16*len(w.Children)
		for _, c := range w.Children {
			n += len(c)
		}
		for _, a := range w.Actions {
			n += 16 + len(a)
		}
	}
	return n
}

// ListingRootLimit is the most elements a wait's scoped listing holds: the listing root is the
// match's outermost ancestor whose subtree holds at most this many.
const ListingRootLimit = 200

// SubtreeBudget is the budget of a walk of one element's subtree for a reply that lists it on
// its own: the wide budget, at most ListingRootLimit elements.
func SubtreeBudget() model.Budget {
	b := model.WideBudget()
	b.MaxElements = ListingRootLimit
	return b
}

// SubtreeSnapshot stores a snapshot of walk, a walk of one element's subtree with
// SubtreeBudget, as of window win, and returns its listing, scoped at the walk's root, and match
// as listed (the root when match is not in the walk).
func (o *Observer) SubtreeSnapshot(app model.App, win model.Window, walk WalkResult, match model.NodeRef) (*model.Inspection, *model.Element, error) {
	if len(walk.Nodes) == 0 {
		return nil, nil, model.Errorf(model.CodeElementNotFound, "The element went away before the reply; wait again.",
			"the element is no longer there")
	}
	snap := o.newSnapshot(app, win, SubtreeBudget(), walk)
	o.store.Put(snap)
	out := snap.Listing(snap.Subtree(0))
	out.Scope = &model.ScopeInfo{Element: model.ElementID(0)}
	i := max(slices.IndexFunc(snap.Walk.Nodes, func(w Walked) bool { return w.Ref == match }), 0)
	el := snap.Walk.Nodes[i].Listed()
	return out, &el, nil
}
