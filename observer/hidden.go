package observer

import "github.com/axbus/axbus/model"

// What is hidden, one rule (hiddenUnder) applied over a walk (HiddenIn: observer/text leaves it
// out of a read) and along one element's path (HiddenOnPath: commands refuses to act on it).

// hiddenUnder reports whether n, a child of parent, is hidden: not on screen, and not merely
// scrolled out of sight. A read leaves a hidden element out with its subtree (unless asked for
// everything): the items of a closed menu, a toolbar's overflow, a hidden widget, the pages of a
// stack or notebook that are not shown, a browser's unused controls. parentInView says whether
// parent lies wholly in view (see viewUnder).
//
// The rule stands on two states as AT-SPI defines them: showing (on screen now) and visible
// (would be seen were it scrolled into view and uncovered). n is hidden when its parent is
// showing and n is not, and either
//   - n is not visible either: hidden outright (a hidden GTK widget, a closed LibreOffice menu,
//     Chromium's unused browser controls); or
//   - n has no place on screen (no bounds, or bounds the platform says are off screen) although
//     its parent lies wholly in view, so that n cannot be scrolled out of it: the items of a
//     closed GTK menu, the buttons a toolbar has no room for; or
//   - n lies behind a sibling that shows where n would (behind): a browser's tab behind the one
//     shown (Firefox keeps a new-tab page ready there), a stack's page under another.
//
// An element that reports no state at all is not hidden: WebKitGTK's web view (a socket) and the
// page's root in the web process (its plug) report none, and the page under them shows.
//
// Content scrolled out of view is kept: web content keeps its bounds off screen, and GTK3's rows,
// which lose theirs, sit in a list that reaches past its scroll area. Only a showing parent
// decides, so a toolkit that does not report showing hides nothing: GTK 4.8 sets it on the window
// alone (whose children are visible and placed), macOS has no such state, and their trees are
// read whole.
func hiddenUnder(parent *model.Node, parentInView bool, n *model.Node, behind bool) bool {
	if !parent.States.Has(model.StateShowing) || n.States.Has(model.StateShowing) || n.States == 0 {
		return false // an element with no state at all says nothing (WebKitGTK's socket and plug)
	}
	if !n.States.Has(model.StateVisible) {
		return true
	}
	return (!placed(n) && parentInView) || behind
}

// behindSibling reports whether element i, placed and not showing, lies under a sibling that
// shows over its place: what shows there is the sibling.
func behindSibling(nodes []Walked, siblings []int, i int) bool {
	n := &nodes[i].Node
	if n.States.Has(model.StateShowing) || !placed(n) {
		return false
	}
	for _, j := range siblings {
		if j != i && showsOver(&nodes[j].Node, n) {
			return true
		}
	}
	return false
}

// showsOver reports whether s shows where n, placed, would be.
func showsOver(s, n *model.Node) bool {
	return s.States.Has(model.StateShowing) && placed(s) && !s.Bounds.Intersect(*n.Bounds).Empty()
}

// viewUnder is where element n stands, given its parent's: the visible clip around n (the walk's: the
// window's bounds, narrowed at scroll and web areas; nil at the window) and whether n lies wholly
// in view: inside that clip, or wholly outside it (an edge shared at most) under a parent in view,
// which is a pop-up drawn over the window (an open menu's items). One reaching past its clip (a
// long list in a scroll area, a row on its edge) is not wholly in view.
func viewUnder(parent *model.Node, parentClip *model.Rect, parentInView bool, n *model.Node) (clip *model.Rect, inView bool) {
	clip = narrowClip(parentClip, parent)
	if !placed(n) {
		return clip, false
	}
	b := *n.Bounds
	return clip, clip == nil || clip.Holds(b) || (parentInView && b.Intersect(*clip).Empty())
}

// placed reports whether the platform gave n a place on screen.
func placed(n *model.Node) bool { return !n.Offscreen && n.Bounds != nil && !n.Bounds.Empty() }

// HiddenIn marks the hidden elements of the subtree at root of a walk (nodes[root:end], indexed
// from root; see hiddenUnder): what a read of its text leaves out. The root is never hidden: a
// scope names what to read, shown or not.
func HiddenIn(nodes []Walked, root, end int) []bool {
	hidden := make([]bool, end-root)
	clips := make([]*model.Rect, end-root)
	inView := make([]bool, end-root)
	kids := make([][]int, end-root)
	for i := root + 1; i < end; i++ {
		p := nodes[i].Parent - root
		kids[p] = append(kids[p], i)
	}
	clips[0], inView[0] = viewOf(nodes, root)
	for i := root + 1; i < end; i++ {
		o, p := i-root, nodes[i].Parent-root
		clips[o], inView[o] = viewUnder(&nodes[root+p].Node, clips[p], inView[p], &nodes[i].Node)
		hidden[o] = hiddenUnder(&nodes[root+p].Node, inView[p], &nodes[i].Node, behindSibling(nodes, kids[p], i))
	}
	return hidden
}

// viewOf is where element i of a walk stands (see viewUnder), from the window down.
func viewOf(nodes []Walked, i int) (clip *model.Rect, inView bool) {
	path := []int{i}
	for p := nodes[i].Parent; p >= 0; p = nodes[p].Parent {
		path = append(path, p)
	}
	top := &nodes[path[len(path)-1]].Node
	inView = placed(top) // the window
	for k := len(path) - 2; k >= 0; k-- {
		clip, inView = viewUnder(&nodes[path[k+1]].Node, clip, inView, &nodes[path[k]].Node)
	}
	return clip, inView
}
