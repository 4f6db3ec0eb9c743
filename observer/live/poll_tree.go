package live

import (
	"cmp"
	"slices"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// polledTree is a copy of one window: every element read, by handle, with the child lists a
// re-read compares against. The poller's copy holds each element's summary alone and never more
// elements than its budget; a live window's (waits) holds whole nodes too.
type polledTree struct {
	window model.Window
	root   model.NodeRef
	budget model.Budget
	elems  map[model.NodeRef]*polledElem
	// nodes keeps each element's whole Node: waits match against it and build snapshots from it.
	// The poller's diffs need only the summary, and a Node is three times its size.
	nodes bool
	// limit caps the elements held (0: no cap): events add no element past it, so that a page
	// growing under notifications costs no more than a full read of it.
	limit int
	// focused is the element last read with the focused state: when focus moves, it is re-read
	// too, since the notification names only the element that gained focus.
	focused model.NodeRef
	// strangers are elements events named that could not be placed in this window (another
	// window's, or placed nowhere by their bounds): they are not looked for again until the
	// next full read, so a busy element elsewhere costs one read, not one per cycle.
	strangers map[model.NodeRef]bool
}

type polledElem struct {
	model.DiffElement
	// node is the element as last read, whole (without its children's handles, which children
	// holds), in a tree that keeps nodes: what a wait matches against and a snapshot is built
	// from. nil in the poller's copy.
	node   *model.Node
	parent model.NodeRef
	depth  int
	// children are the element's children within the budget, in order.
	children []model.NodeRef
}

// newTree is an empty copy of win.
func newTree(win model.Window, b model.Budget, nodes bool, limit int) *polledTree {
	return &polledTree{window: win, root: win.Ref, budget: b, nodes: nodes, limit: limit,
		elems: map[model.NodeRef]*polledElem{}, strangers: map[model.NodeRef]bool{}}
}

// pollTree is the poller's copy of a window from a full walk of it: summaries, at most the
// budget's elements.
func pollTree(win model.Window, w *observer.WalkResult, b model.Budget) *polledTree {
	return newTree(win, b, false, b.MaxElements).fill(w)
}

// liveTree is a live window's copy from a full walk of it: whole nodes.
func liveTree(win model.Window, w *observer.WalkResult, b model.Budget) *polledTree {
	return newTree(win, b, true, 0).fill(w)
}

// fill records a full walk of the window.
func (t *polledTree) fill(w *observer.WalkResult) *polledTree {
	t.elems = make(map[model.NodeRef]*polledElem, len(w.Nodes))
	for i := range w.Nodes {
		n := &w.Nodes[i]
		var parent model.NodeRef
		if n.Parent >= 0 {
			parent = w.Nodes[n.Parent].Ref
		}
		t.put(&n.Node, parent, n.Depth)
	}
	return t
}

// full reports whether the copy holds as many elements as it may.
func (t *polledTree) full() bool { return t.limit > 0 && len(t.elems) >= t.limit }

// put records n under parent and returns its entry.
func (t *polledTree) put(n *model.Node, parent model.NodeRef, depth int) *polledElem {
	var parentKey string
	if p := t.elems[parent]; p != nil {
		parentKey = p.Key
	}
	e := &polledElem{parent: parent, depth: depth, children: t.childrenOf(n, depth)}
	if t.nodes {
		e.node = bare(n)
		e.DiffElement = summarize(e.node, parentKey) // shares the node's owned strings
	} else {
		e.DiffElement = owned(summarize(n, parentKey))
	}
	t.elems[n.Ref] = e
	t.noteFocus(n.Ref, e.States)
	return e
}

// childrenOf is the part of n's child list the budget lets a walk follow, as Walk cuts it.
func (t *polledTree) childrenOf(n *model.Node, depth int) []model.NodeRef {
	if t.budget.MaxDepth > 0 && depth+1 > t.budget.MaxDepth {
		return nil
	}
	kids := n.Children
	if t.budget.MaxChildren > 0 && len(kids) > t.budget.MaxChildren {
		kids = kids[:t.budget.MaxChildren]
	}
	return slices.Clone(kids)
}

// bare is a copy of n without its children's handles, with strings of its own.
func bare(n *model.Node) *model.Node {
	c := *n
	c.Children = nil
	ownNode(&c)
	return &c
}

func (t *polledTree) noteFocus(ref model.NodeRef, s model.States) {
	switch {
	case s.Has(model.StateFocused):
		t.focused = ref
	case t.focused == ref:
		t.focused = ""
	}
}

// each calls fn for ref and the elements under it, in pre-order.
func (t *polledTree) each(ref model.NodeRef, fn func(model.NodeRef, *polledElem)) {
	e := t.elems[ref]
	if e == nil {
		return
	}
	fn(ref, e)
	for _, c := range e.children {
		if ce := t.elems[c]; ce != nil && ce.parent == ref { // a stale list never visits a moved child
			t.each(c, fn)
		}
	}
}

// all lists the whole window in pre-order.
func (t *polledTree) all() []model.DiffElement {
	out := make([]model.DiffElement, 0, len(t.elems))
	t.each(t.root, func(_ model.NodeRef, e *polledElem) { out = append(out, e.DiffElement) })
	return out
}

// removeSubtree forgets ref and everything under it and returns what was removed, in
// pre-order. The parent's child list is left as it is: the caller knows whether it is fresh.
func (t *polledTree) removeSubtree(ref model.NodeRef) []model.DiffElement {
	var out []model.DiffElement
	var refs []model.NodeRef
	t.each(ref, func(r model.NodeRef, e *polledElem) {
		out = append(out, e.DiffElement)
		refs = append(refs, r)
	})
	for _, r := range refs {
		delete(t.elems, r)
		if t.focused == r {
			t.focused = ""
		}
	}
	return out
}

// unlink removes child from parent's child list, so that a later re-read of the parent sees
// it as new again if it is still there.
func (t *polledTree) unlink(parent, child model.NodeRef) {
	if p := t.elems[parent]; p != nil {
		p.children = slices.DeleteFunc(p.children, func(c model.NodeRef) bool { return c == child })
	}
}

// reparent moves a known element under a new parent and fixes the depths of its subtree.
func (t *polledTree) reparent(ref, parent model.NodeRef) (before model.DiffElement, after model.DiffElement) {
	e, p := t.elems[ref], t.elems[parent]
	before = e.DiffElement
	e.parent, e.Parent = parent, p.Key
	shift := p.depth + 1 - e.depth
	t.each(ref, func(_ model.NodeRef, d *polledElem) { d.depth += shift })
	return before, e.DiffElement
}

// containers lists up to limit elements whose bounds contain r, smallest first: where an
// element that appeared without naming its parent most likely lives.
func (t *polledTree) containers(r model.Rect, limit int, skip func(model.NodeRef) bool) []model.NodeRef {
	type cand struct {
		ref  model.NodeRef
		area float64
	}
	var found []cand
	for ref, e := range t.elems {
		if b := e.Bounds; b != nil && b.Holds(r) && !skip(ref) {
			found = append(found, cand{ref, b.W * b.H})
		}
	}
	slices.SortFunc(found, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.area, b.area), cmp.Compare(a.ref, b.ref))
	})
	out := make([]model.NodeRef, 0, min(limit, len(found)))
	for _, c := range found[:min(limit, len(found))] {
		out = append(out, c.ref)
	}
	return out
}

// diffTrees compares two full reads of a window: elements of next missing from prev are added,
// those of prev missing from next removed, those in both with another summary changed.
func diffTrees(prev, next *polledTree, d *delta) {
	next.each(next.root, func(ref model.NodeRef, e *polledElem) {
		old := prev.elems[ref]
		if old == nil {
			d.added = append(d.added, e.DiffElement)
			return
		}
		if ch := changesFrom(&e.DiffElement, &old.DiffElement); ch != nil {
			d.change(ref, e.DiffElement, ch)
		}
	})
	prev.each(prev.root, func(ref model.NodeRef, e *polledElem) {
		if next.elems[ref] == nil {
			d.removed = append(d.removed, e.DiffElement)
		}
	})
}
