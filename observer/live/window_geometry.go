package live

import "github.com/axbus/axbus/model"

// PathTo lists the handles from the window's root down to ref, or nil when the copy does not
// hold it.
func (lw *Window) PathTo(ref model.NodeRef) []model.NodeRef {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.tree.pathTo(ref)
}

// Clip is the visible clip of ref as the copy knows it: the window's bounds narrowed at every
// scroll and web area above ref, as the visible-clip walk narrows them. nil when no ancestor
// has bounds (or the copy does not hold ref).
func (lw *Window) Clip(ref model.NodeRef) *model.Rect {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	path := lw.tree.pathTo(ref)
	var clip *model.Rect
	for _, a := range path[:max(len(path)-1, 0)] {
		e := lw.tree.elems[a]
		if e == nil || e.node == nil {
			continue
		}
		nb := e.node.Bounds
		if nb == nil || nb.Empty() || (clip != nil && !e.node.Role.Clips()) {
			continue
		}
		c := *nb
		if clip != nil {
			c = clip.Intersect(*nb)
		}
		clip = &c
	}
	return clip
}
