package observer

import (
	"context"

	"github.com/axbus/axbus/model"
)

// maxSiblingsRead bounds the siblings HiddenOnPath reads to tell whether one of them shows
// where an element would: past it, the element is taken as not hidden.
const maxSiblingsRead = 64

// HiddenOnPath applies read's rule of what is hidden (see hiddenUnder) to one element, read now
// with its ancestors: path runs from its window down to it. It returns the index in path of the
// element that hides the last one (itself or an ancestor), or -1 when it is not hidden.
//
// It needs no walk of the window: each element is judged under its parent, and where the clip
// stands comes down the path. Siblings are read (through r, at most maxSiblingsRead) only for an
// element that does not show under a showing parent wholly in view, although it is visible and
// placed: one shows over its place (a stack's page under another). Under a parent not wholly in
// view (a long list) such an element is taken as scrolled out, not hidden.
func HiddenOnPath(ctx context.Context, r Reader, path []model.Node) int {
	if len(path) == 0 {
		return -1
	}
	var clip *model.Rect
	inView := placed(&path[0])
	for i := 1; i < len(path); i++ {
		parent, n := &path[i-1], &path[i]
		parentInView := inView
		clip, inView = viewUnder(parent, clip, inView, n)
		switch {
		case hiddenUnder(parent, parentInView, n, false):
			return i
		// Not showing under a showing parent wholly in view, yet visible and placed: is it behind?
		case parentInView && hiddenUnder(parent, true, n, true) && siblingShowsOver(ctx, r, parent, n):
			return i
		}
	}
	return -1
}

// siblingShowsOver reads parent's other children and reports whether one shows where n would.
func siblingShowsOver(ctx context.Context, r Reader, parent, n *model.Node) bool {
	if !placed(n) || len(parent.Children) > maxSiblingsRead {
		return false
	}
	refs := make([]model.NodeRef, 0, len(parent.Children))
	for _, c := range parent.Children {
		if c != n.Ref {
			refs = append(refs, c)
		}
	}
	for _, s := range r.Read(ctx, refs) {
		if s.Err == nil && showsOver(&s, n) {
			return true
		}
	}
	return false
}
