package observer

import (
	"context"
	"slices"

	"github.com/axbus/axbus/model"
)

// Reader reads elements in batches; every Backend is one.
type Reader interface {
	Read(ctx context.Context, refs []model.NodeRef) []model.Node
}

// WalkOptions says how to walk a tree.
type WalkOptions struct {
	Budget model.Budget
	// VisibleOnly skips elements wholly outside the visible clip, with their subtrees. The clip
	// starts as the root's bounds and narrows at each scroll area and web area.
	VisibleOnly bool
	// Keep lists elements kept even when off-screen: the path to the focused element.
	Keep []model.NodeRef
}

// Walked is one element of a walk, in pre-order: Index is its N in eN.
type Walked struct {
	model.Node
	Index  int
	Parent int // -1 for the root
	Depth  int
}

// WalkResult is what a walk traversed, in pre-order, and what cut it short.
type WalkResult struct {
	Nodes            []Walked
	Truncation       []model.Truncation
	Incomplete       bool
	OffscreenOmitted int
	// Reads counts the elements read, including those skipped or beyond the budget.
	Reads int
}

func (w *WalkResult) cut(t model.Truncation) {
	if !slices.Contains(w.Truncation, t) {
		w.Truncation = append(w.Truncation, t)
	}
}

// walkItem is an element waiting to be read or read already. Its path (the child indices from
// the root) orders it in pre-order: pre-order is the lexicographic order of paths.
type walkItem struct {
	ref    model.NodeRef
	path   []int32
	depth  int
	parent *walkItem
	clip   *model.Rect
	node   *model.Node // in its batch's read: an item is a few words, not a copy of the element
	index  int
}

func pathLess(a, b []int32) bool { return slices.Compare(a, b) < 0 }

// Walk reads the tree under root within opt.Budget. It reads in batches so that a backend can
// pipeline its calls, always taking the pending elements that come first in pre-order; it stops
// as soon as the first MaxElements kept elements in pre-order are known. When the deadline
// passes it returns what it has, marked incomplete, never nothing.
//
// An element that no longer exists where the walk was told it is (a parent's children read
// earlier, or kept by the backend) makes the walk start again once, within the same deadline:
// the backend has dropped what named it, and the tree is read as it is now.
func Walk(ctx context.Context, r Reader, root model.NodeRef, opt WalkOptions) WalkResult {
	if opt.Budget.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Budget.Deadline)
		defer cancel()
	}
	res, vanished := walk(ctx, r, root, opt)
	if vanished && ctx.Err() == nil {
		res, _ = walk(ctx, r, root, opt)
	}
	return res
}

// walk is one walk of Walk; vanished reports an element that was gone when read.
func walk(ctx context.Context, r Reader, root model.NodeRef, opt WalkOptions) (res WalkResult, vanished bool) {
	b := opt.Budget
	keep := make(map[model.NodeRef]bool, len(opt.Keep)+1)
	keep[root] = true // the window itself is listed even when the platform calls it off-screen
	for _, k := range opt.Keep {
		keep[k] = true
	}

	pending := []*walkItem{{ref: root}} // kept sorted by path, first is next in pre-order
	var accepted []*walkItem
	for len(pending) > 0 {
		if ctx.Err() != nil {
			res.cut(model.TruncatedDeadline)
			res.Incomplete = true
			break
		}
		if b.MaxElements > 0 && len(accepted) >= b.MaxElements {
			slices.SortFunc(accepted, func(x, y *walkItem) int { return slices.Compare(x.path, y.path) })
			if pathLess(accepted[b.MaxElements-1].path, pending[0].path) {
				break // nothing pending can come before the last element in budget
			}
		}
		n := batchSize(b.MaxElements - len(accepted))
		batch := pending[:min(n, len(pending))]
		pending = pending[len(batch):]
		var guessed []*walkItem
		if k, ok := r.(ChildKnower); ok {
			guessed = guessChildren(k, batch, n-len(batch), b, opt.VisibleOnly)
		}
		refs := make([]model.NodeRef, 0, len(batch)+len(guessed))
		for _, it := range slices.Concat(batch, guessed) {
			refs = append(refs, it.ref)
		}
		nodes := r.Read(ctx, refs)
		res.Reads += len(refs)
		for i, it := range batch {
			it.node = &nodes[i]
		}
		read := make(map[model.NodeRef]*walkItem, len(guessed))
		for i, g := range guessed {
			g.node = &nodes[len(batch)+i]
			read[g.ref] = g
		}
		var children []*walkItem
		// Each element read is taken in turn; a child read with it (guessed right) is taken in
		// this round too, the others wait for the next batch.
		for queue := slices.Clip(batch); len(queue) > 0; queue = queue[1:] {
			it := queue[0]
			if it.node.Err != nil {
				if ctx.Err() != nil {
					res.cut(model.TruncatedDeadline)
				} else {
					res.cut(model.IncompleteRead)
				}
				res.Incomplete = true
				vanished = vanished || (it.parent != nil && model.CodeOf(it.node.Err) == model.CodeElementNotFound)
				continue
			}
			if opt.VisibleOnly && !keep[it.ref] && offClip(it.node, it.clip) {
				res.OffscreenOmitted++
				continue
			}
			accepted = append(accepted, it)
			var kids []*walkItem
			if br, ok := r.(BoundsReader); ok && opt.VisibleOnly && len(it.node.Children) > scanThreshold {
				kids = scanVisible(ctx, br, it, b, keep, &res)
			} else {
				kids = expand(it, b, keep, &res)
			}
			for _, kid := range kids {
				if g := read[kid.ref]; g != nil && slices.Equal(g.path, kid.path) {
					kid.node = g.node
					queue = append(queue, kid)
				} else {
					children = append(children, kid)
				}
			}
		}
		pending = mergeByPath(pending, children)
	}
	slices.SortFunc(accepted, func(x, y *walkItem) int { return slices.Compare(x.path, y.path) })
	if b.MaxElements > 0 && (len(accepted) > b.MaxElements || (len(accepted) == b.MaxElements && len(pending) > 0)) {
		res.cut(model.TruncatedCount)
		accepted = accepted[:b.MaxElements]
	}
	res.Nodes = make([]Walked, len(accepted))
	for i, it := range accepted {
		it.index = i
		parent := -1
		if it.parent != nil {
			parent = it.parent.index
		}
		res.Nodes[i] = Walked{Node: *it.node, Index: i, Parent: parent, Depth: it.depth}
	}
	return res, vanished
}

// guessChildren returns, breadth first, the children k knows under the batch's elements and
// theirs, within the depth and children budgets and room elements in all. A long list's
// children are not guessed on a visible-clip walk: its scan decides which are read.
func guessChildren(k ChildKnower, batch []*walkItem, room int, b model.Budget, visibleOnly bool) []*walkItem {
	var out []*walkItem
	for queue := slices.Clip(batch); len(queue) > 0 && len(out) < room; queue = queue[1:] {
		it := queue[0]
		if b.MaxDepth > 0 && it.depth+1 > b.MaxDepth {
			continue
		}
		kids := k.KnownChildren(it.ref)
		if visibleOnly && len(kids) > scanThreshold {
			continue
		}
		for i, ref := range kids {
			if len(out) == room || (b.MaxChildren > 0 && i >= b.MaxChildren) {
				break
			}
			g := it.child(i, ref, nil)
			out = append(out, g)
			queue = append(queue, g)
		}
	}
	return out
}

// batchSize reads a little more than the budget still needs, so that a backend can pipeline a
// useful number of calls, but not a whole 400-row list when 20 elements are left.
func batchSize(left int) int {
	if left <= 0 {
		return 32
	}
	return min(max(left, 32), 512)
}

// expand returns it's children as pending items, applying the depth and children budgets. A
// kept child (on the focus path) passes both budgets, so that the focused element is listed
// wherever it is.
func expand(it *walkItem, b model.Budget, keep map[model.NodeRef]bool, res *WalkResult) []*walkItem {
	kids := it.node.Children
	if len(kids) == 0 {
		return nil
	}
	deep := b.MaxDepth > 0 && it.depth+1 > b.MaxDepth
	clip := childClip(it)
	out := make([]*walkItem, 0, min(len(kids), max(b.MaxChildren, 1)))
	for i, ref := range kids {
		wide := b.MaxChildren > 0 && i >= b.MaxChildren
		if (deep || wide) && !keep[ref] {
			if deep {
				res.cut(model.TruncatedDepth)
			} else {
				res.cut(model.TruncatedChildren)
			}
			continue
		}
		out = append(out, it.child(i, ref, clip))
	}
	return out
}

// childClip is the visible clip of it's children: it's own, narrowed at scroll and web areas
// (the window's bounds start it).
func childClip(it *walkItem) *model.Rect { return narrowClip(it.clip, it.node) }

// narrowClip is the visible clip of n's children when n's own is clip: the first bounds on the
// way down start it, and each scroll or web area narrows it.
func narrowClip(clip *model.Rect, n *model.Node) *model.Rect {
	if nb := n.Bounds; nb != nil && !nb.Empty() && (clip == nil || n.Role.Clips()) {
		c := *nb
		if clip != nil {
			c = clip.Intersect(*nb)
		}
		clip = &c
	}
	return clip
}

// child makes the pending item of it's i-th child.
func (it *walkItem) child(i int, ref model.NodeRef, clip *model.Rect) *walkItem {
	path := make([]int32, len(it.path)+1)
	copy(path, it.path)
	path[len(it.path)] = int32(i)
	return &walkItem{ref: ref, path: path, depth: it.depth + 1, parent: it, clip: clip}
}

// scanThreshold: elements with more children than this (lists, tables) have their children's
// bounds scanned before any child is read in full.
const scanThreshold = 16

// The scan reads the bounds of scanFirst children, then of twice as many each time, up to
// scanLimit children of one element: a list at its top costs 32 reads, one scrolled to row 350
// four rounds.
const (
	scanFirst = 32
	scanLimit = 1000
)

// scanVisible returns the children of a long list that lie in the visible clip, reading only
// their bounds to decide: chunk after chunk until the visible run of children has been passed,
// so that a list scrolled to row 350 lists rows 340 to 355, not its first 100 off-screen rows.
// The children budget counts visible children. Children skipped are counted as off-screen.
func scanVisible(ctx context.Context, br BoundsReader, it *walkItem, b model.Budget, keep map[model.NodeRef]bool, res *WalkResult) []*walkItem {
	kids := it.node.Children
	if b.MaxDepth > 0 && it.depth+1 > b.MaxDepth {
		return expand(it, b, keep, res)
	}
	clip := childClip(it)
	var out []*walkItem
	seen, passed := false, false
	end := min(len(kids), scanLimit)
	scanned := 0
	for start, size := 0, scanFirst; start < end && !passed && ctx.Err() == nil; start, size = start+size, size*2 {
		chunk := kids[start:min(start+size, end)]
		bounds := br.ReadBounds(ctx, chunk)
		scanned = start + len(chunk)
		for j, bd := range bounds {
			ref := chunk[j]
			n := model.Node{Bounds: bd.Rect, Offscreen: bd.Offscreen}
			visible := bd.Err != nil || !offClip(&n, clip) // an unreadable child is read in full: it decides
			switch {
			case keep[ref]:
			case !visible:
				res.OffscreenOmitted++
				passed = passed || seen
				continue
			case b.MaxChildren > 0 && len(out) >= b.MaxChildren:
				res.cut(model.TruncatedChildren)
				continue
			}
			seen = true
			out = append(out, it.child(start+j, ref, clip))
		}
	}
	if !passed && scanned < len(kids) {
		res.cut(model.TruncatedChildren)
	}
	for i := scanned; i < len(kids); i++ { // the focus path may lie past the scan
		if keep[kids[i]] {
			out = append(out, it.child(i, kids[i], clip))
		}
	}
	return out
}

// offClip reports whether n lies wholly outside clip. Elements without bounds are kept: their
// children decide.
func offClip(n *model.Node, clip *model.Rect) bool {
	if n.Offscreen {
		return true
	}
	return clip != nil && n.Bounds != nil && !n.Bounds.Touches(*clip)
}

// mergeByPath merges two path-sorted lists. children arrive sorted because a batch is sorted
// and each element's children follow it.
func mergeByPath(a, b []*walkItem) []*walkItem {
	if len(b) == 0 {
		return a
	}
	slices.SortFunc(b, func(x, y *walkItem) int { return slices.Compare(x.path, y.path) })
	out := make([]*walkItem, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if pathLess(a[i].path, b[j].path) {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
