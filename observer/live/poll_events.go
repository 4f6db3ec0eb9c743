package live

import (
	"context"
	"slices"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// readsPerCall bounds one Read call of the poller. An app answers its requests in order, so a
// background read of hundreds of elements at once would hold up everything else asked of the
// app meanwhile (an event's summary, an agent's inspection) for its whole length; 32 elements
// are about 10 ms of a GTK3 app's time. A cancelled cycle also stops between calls.
const readsPerCall = 32

// placeLimit: an element that appears without naming its parent (macOS posts AXCreated on the
// new element, not on its parent) is looked for among the children of at most this many of the
// smallest known elements whose bounds contain it.
const placeLimit = 8

// delta accumulates one cycle's changes.
type delta struct {
	added      []model.DiffElement
	removed    []model.DiffElement
	changed    []model.ChangedElement
	changedAt  map[model.NodeRef]int
	reads      int
	truncation []model.Truncation
	// read are the elements this cycle read and put in the tree as read: what a wait may take
	// for confirmed, since they were read after the events that named them.
	read []model.NodeRef
}

// cut records that the cycle's changes were cut short by t.
func (d *delta) cut(t model.Truncation) {
	if !slices.Contains(d.truncation, t) {
		d.truncation = append(d.truncation, t)
	}
}

// empty reports whether the cycle found no change: an events or resync cycle that found none
// publishes nothing.
func (d *delta) empty() bool {
	return len(d.added) == 0 && len(d.removed) == 0 && len(d.changed) == 0
}

// change records that ref now reads as now; a second change of the same element in one cycle
// merges into the first, keeping the oldest old values.
func (d *delta) change(ref model.NodeRef, now model.DiffElement, ch map[string]model.FieldChange) {
	if i, ok := d.changedAt[ref]; ok {
		c := &d.changed[i]
		c.DiffElement = now
		for f, fc := range ch {
			if prev, ok := c.Changes[f]; ok {
				fc.Old = prev.Old
			}
			c.Changes[f] = fc
		}
		return
	}
	if d.changedAt == nil {
		d.changedAt = map[model.NodeRef]int{}
	}
	d.changedAt[ref] = len(d.changed)
	d.changed = append(d.changed, model.ChangedElement{DiffElement: now, Changes: ch})
}

// childChange is a child that appeared in, or dropped out of, a parent's fresh child list.
type childChange struct{ parent, child model.NodeRef }

// eventCycle is one cycle that re-reads only what notifications named: the marked elements,
// the children that appeared under them (with their subtrees), and, for elements that appeared
// without naming a parent, the few known elements that may hold them. Its cost follows the size
// of the change, not of the window.
type eventCycle struct {
	r        observer.Reader
	t        *polledTree
	d        *delta
	done     map[model.NodeRef]bool       // read in this cycle
	fresh    map[model.NodeRef]model.Node // read in this cycle and not (yet) in the tree
	appeared []childChange
	dropped  []childChange
	retry    []model.NodeRef // read failed for a reason that may pass: marked again
}

// applyMarks brings t up to date with what the marks name and returns the changes.
func applyMarks(ctx context.Context, r observer.Reader, t *polledTree, m markSet) (*delta, []model.NodeRef) {
	c := &eventCycle{r: r, t: t, d: &delta{}, done: map[model.NodeRef]bool{}, fresh: map[model.NodeRef]model.Node{}}
	var known, unknown []model.NodeRef
	refs := make([]model.NodeRef, 0, len(m.refs))
	for ref := range m.refs {
		refs = append(refs, ref)
	}
	slices.Sort(refs) // a stable order makes a stable diff
	for _, ref := range refs {
		kind, e := m.refs[ref], t.elems[ref]
		switch {
		case kind&markDestroyed != 0:
			c.destroy(ref)
		case e == nil:
			if !t.strangers[ref] {
				unknown = append(unknown, ref)
			}
		case kind&markSubtree != 0:
			t.each(ref, func(r model.NodeRef, _ *polledElem) { known = append(known, r) })
		case kind&markChildren != 0:
			known = append(known, ref)
			for _, k := range e.children {
				if t.elems[k] != nil { // children beyond the budget stay unread
					known = append(known, k)
				}
			}
		default:
			known = append(known, ref)
		}
	}
	if m.focusMoved && t.focused != "" {
		known = append(known, t.focused)
	}
	c.reread(ctx, known, unknown)
	c.place(ctx, unknown)
	c.adopt(ctx)
	c.drop()
	for _, ref := range unknown {
		if t.elems[ref] == nil {
			t.strangers[ref] = true // not in this window as far as events can tell: the resync decides
		}
	}
	return c.d, c.retry
}

// destroy forgets a destroyed element. The window itself is never dropped here: whether it is
// still there is for the window list to say.
func (c *eventCycle) destroy(ref model.NodeRef) {
	e := c.t.elems[ref]
	if e == nil || ref == c.t.root {
		return
	}
	c.d.removed = append(c.d.removed, c.t.removeSubtree(ref)...)
	c.t.unlink(e.parent, ref)
}

// reread reads the known elements to refresh them and the unknown ones to place them, in one go.
func (c *eventCycle) reread(ctx context.Context, known, unknown []model.NodeRef) {
	refs := c.unread(append(known, unknown...))
	for i, n := range c.read(ctx, refs) {
		if c.t.elems[refs[i]] != nil {
			c.refresh(refs[i], &n)
		} else if n.Err == nil {
			c.fresh[refs[i]] = n
		}
	}
}

// unread drops duplicates and elements read already in this cycle.
func (c *eventCycle) unread(refs []model.NodeRef) []model.NodeRef {
	out := make([]model.NodeRef, 0, len(refs))
	for _, r := range refs {
		if r != "" && !c.done[r] {
			c.done[r] = true
			out = append(out, r)
		}
	}
	return out
}

// read reads refs in calls of at most readsPerCall elements.
func (c *eventCycle) read(ctx context.Context, refs []model.NodeRef) []model.Node {
	out := make([]model.Node, 0, len(refs))
	for start := 0; start < len(refs); start += readsPerCall {
		chunk := refs[start:min(start+readsPerCall, len(refs))]
		if err := ctx.Err(); err != nil {
			for _, r := range chunk {
				out = append(out, model.Node{Ref: r, Err: err})
			}
			continue
		}
		out = append(out, c.r.Read(ctx, chunk)...)
		c.d.reads += len(chunk)
	}
	return out
}

// refresh compares a fresh read of a known element with what the tree holds.
func (c *eventCycle) refresh(ref model.NodeRef, n *model.Node) {
	e := c.t.elems[ref]
	if n.Err != nil {
		switch model.CodeOf(n.Err) {
		case model.CodeElementNotFound, model.CodeStaleRef:
			c.destroy(ref)
		default:
			c.retry = append(c.retry, ref)
		}
		return
	}
	read := n
	if c.t.nodes {
		e.node = bare(n)
		read = e.node // its strings are the copy's own (its children are n's)
	}
	next := summarize(read, e.Parent)
	if ch := changesFrom(&next, &e.DiffElement); ch != nil {
		if !c.t.nodes {
			next = owned(next) // kept: an unchanged element costs no allocation
		}
		e.DiffElement = next
		c.d.change(ref, next, ch)
	}
	c.t.noteFocus(ref, next.States)
	c.d.read = append(c.d.read, ref)
	kids := c.t.childrenOf(n, e.depth)
	if slices.Equal(kids, e.children) {
		return
	}
	was, is := refSet(e.children), refSet(kids)
	for _, k := range kids {
		if !was[k] {
			c.appeared = append(c.appeared, childChange{ref, k})
		}
	}
	for _, k := range e.children {
		if !is[k] {
			c.dropped = append(c.dropped, childChange{ref, k})
		}
	}
	e.children = kids
}

func refSet(refs []model.NodeRef) map[model.NodeRef]bool {
	s := make(map[model.NodeRef]bool, len(refs))
	for _, r := range refs {
		s[r] = true
	}
	return s
}

// place looks for the parents of elements that appeared on their own: it re-reads the parent
// the platform names, or else the smallest known elements whose bounds contain them, whose fresh
// child lists then show them. An element placed by neither waits for the resync.
func (c *eventCycle) place(ctx context.Context, unknown []model.NodeRef) {
	var cands []model.NodeRef
	for _, ref := range unknown {
		n, ok := c.fresh[ref]
		switch {
		case !ok || c.appears(ref):
		case n.Parent != "" && c.t.elems[n.Parent] != nil: // the platform names the parent
			cands = append(cands, n.Parent)
		case n.Bounds != nil:
			cands = append(cands, c.t.containers(*n.Bounds, placeLimit, func(r model.NodeRef) bool { return c.done[r] })...)
		}
	}
	refs := c.unread(cands)
	for i, n := range c.read(ctx, refs) {
		c.refresh(refs[i], &n)
	}
}

func (c *eventCycle) appears(ref model.NodeRef) bool {
	return slices.ContainsFunc(c.appeared, func(a childChange) bool { return a.child == ref })
}

// adopt brings the children that appeared into the tree, level by level, one read per level:
// a known element is moved under its new parent, an unknown one is read with its subtree. A
// copy that is full reads and adds none (see polledTree.limit).
func (c *eventCycle) adopt(ctx context.Context) {
	level := c.appeared
	for len(level) > 0 && ctx.Err() == nil {
		var need []model.NodeRef
		for _, a := range level {
			if _, ok := c.fresh[a.child]; !ok && c.t.elems[a.child] == nil {
				need = append(need, a.child)
			}
		}
		need = c.unread(need)
		if c.t.limit > 0 && len(need) > c.t.limit-len(c.t.elems) {
			need = need[:max(c.t.limit-len(c.t.elems), 0)] // the rest would not fit: unread
		}
		for i, n := range c.read(ctx, need) {
			c.fresh[need[i]] = n
		}
		var next []childChange
		for _, a := range level {
			next = append(next, c.adoptOne(a)...)
		}
		level = next
	}
	for _, a := range level { // cut short: seen as new again when the parent is next re-read
		c.t.unlink(a.parent, a.child)
	}
}

// adoptOne brings one appeared child into the tree and returns its own children to adopt.
func (c *eventCycle) adoptOne(a childChange) []childChange {
	parent := c.t.elems[a.parent]
	if parent == nil {
		return nil
	}
	if e := c.t.elems[a.child]; e != nil {
		if e.parent != a.parent {
			before, after := c.t.reparent(a.child, a.parent)
			c.d.change(a.child, after, changesFrom(&after, &before))
		}
		return nil
	}
	n, ok := c.fresh[a.child]
	delete(c.fresh, a.child)
	if c.t.full() {
		c.d.cut(model.TruncatedCount) // left out, as a full read past the budget would leave it
		ok = false
	}
	if !ok || n.Err != nil {
		c.t.unlink(a.parent, a.child)
		return nil
	}
	e := c.t.put(&n, a.parent, parent.depth+1)
	c.d.added = append(c.d.added, e.DiffElement)
	c.d.read = append(c.d.read, a.child)
	kids := make([]childChange, len(e.children))
	for i, k := range e.children {
		kids[i] = childChange{a.child, k}
	}
	return kids
}

// drop removes the children that left a parent's list, unless they moved under another.
func (c *eventCycle) drop() {
	for _, dr := range c.dropped {
		if e := c.t.elems[dr.child]; e != nil && e.parent == dr.parent {
			c.d.removed = append(c.d.removed, c.t.removeSubtree(dr.child)...)
		}
	}
}
