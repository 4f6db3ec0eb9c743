package sim

import (
	"slices"
	"strconv"
)

// The tree changes that actions, effects and Go controls share, each posting the notification
// macOS posts for it. Callers hold d.mu.

func (d *Desktop) setValue(a *app, n *node, v string) {
	n.value, n.hasValue = v, true
	if a.allSelected == n {
		a.allSelected = nil // the caret lands after the new text
	}
	d.emit(a, "AXValueChanged", n, nil)
}

func (d *Desktop) setTitle(a *app, n *node, t string) {
	n.title = t
	d.emit(a, "AXTitleChanged", n, nil)
}

// setSelected selects n alone among its siblings of the same role, or deselects it. The
// notification is about the container, as AppKit posts it.
func (d *Desktop) setSelected(a *app, n *node, on bool) {
	if n.selected == on {
		return
	}
	if on && n.parent != nil {
		for _, s := range n.parent.children {
			if s.role == n.role {
				s.selected = false
			}
		}
	}
	n.selected = on
	raw, about := "AXSelectedChildrenChanged", n.parent
	if n.role == "AXRow" {
		raw = "AXSelectedRowsChanged"
	}
	if about == nil {
		about = n
	}
	d.emit(a, raw, about, nil)
}

// selectOnly makes chosen the selection among container's children (AXSelectedRows,
// AXSelectedChildren), posting one notification about the container when it changed.
func (d *Desktop) selectOnly(a *app, container *node, chosen []*node) {
	changed := false
	for _, c := range container.children {
		on := slices.Contains(chosen, c)
		if c.selected != on {
			c.selected, changed = on, true
		}
	}
	if !changed {
		return
	}
	raw := "AXSelectedChildrenChanged"
	if selectionAttribute(container.role) == "AXSelectedRows" {
		raw = "AXSelectedRowsChanged"
	}
	d.emit(a, raw, container, nil)
}

// setExpanded expands or collapses n. Only outline rows have a notification for it.
func (d *Desktop) setExpanded(a *app, n *node, on bool) {
	n.expanded = &on
	if n.role == "AXRow" {
		raw := "AXRowCollapsed"
		if on {
			raw = "AXRowExpanded"
		}
		d.emit(a, raw, n, nil)
	}
}

// focus gives n keyboard focus, making its window the key window.
func (d *Desktop) focus(a *app, n *node) {
	if a.focus == n {
		return
	}
	a.focus, a.allSelected = n, nil
	if top := n.top(); top != a.focusedWindow {
		a.focusedWindow = top
		d.emit(a, "AXFocusedWindowChanged", top, nil)
	}
	d.emit(a, "AXFocusedUIElementChanged", n, nil)
}

// clash is the first id of s's subtree that a already has, or "".
func (a *app) clash(s NodeSpec) string {
	for _, c := range s.instances() {
		if _, ok := a.byID[c.ID]; ok {
			return c.ID
		}
		for _, ch := range c.Children {
			if id := a.clash(ch); id != "" {
				return id
			}
		}
	}
	return ""
}

// add builds s (repeats already expanded) under parent, or as a new top-level window when
// parent is nil. Callers check a.clash first.
func (d *Desktop) add(a *app, parent *node, s NodeSpec) {
	var focused *node
	n := a.build(s, parent, func(f *node) {
		if focused == nil {
			focused = f
		}
	})
	switch {
	case parent == nil:
		a.windows = append(a.windows, n)
		d.emit(a, "AXWindowCreated", n, nil)
		if focused == nil {
			a.focusedWindow = n
			d.emit(a, "AXFocusedWindowChanged", n, nil)
		}
	case n.role == "AXSheet":
		parent.children = append(parent.children, n)
		d.emit(a, "AXSheetCreated", n, nil)
	default:
		parent.children = append(parent.children, n)
		d.emit(a, "AXCreated", n, nil)
	}
	if focused != nil {
		d.focus(a, focused)
	}
}

// remove removes n and its subtree; removing a window closes it and the window below becomes key.
func (d *Desktop) remove(a *app, n *node) {
	d.emit(a, "AXUIElementDestroyed", n, nil) // first, while n still has its window
	n.each(func(c *node) { delete(a.byID, c.id) })
	if a.focus != nil && a.focus.within(n) {
		a.focus, a.allSelected = nil, nil
	}
	if n.parent != nil {
		n.parent.children = slices.DeleteFunc(n.parent.children, func(c *node) bool { return c == n })
		return
	}
	a.windows = slices.DeleteFunc(a.windows, func(c *node) bool { return c == n })
	if a.focusedWindow == n {
		a.focusedWindow = nil
		if len(a.windows) > 0 {
			a.focusedWindow = a.windows[len(a.windows)-1]
			d.emit(a, "AXFocusedWindowChanged", a.focusedWindow, nil)
		}
	}
}

// move moves n and its subtree by (dx, dy).
func (d *Desktop) move(a *app, n *node, dx, dy float64) {
	shift(n, dx, dy)
	raw := "AXMoved"
	if n.parent == nil {
		raw = "AXWindowMoved"
	}
	d.emit(a, raw, n, nil)
}

func shift(n *node, dx, dy float64) {
	n.each(func(c *node) {
		if c.frame != nil {
			c.frame.X += dx
			c.frame.Y += dy
		}
	})
}

// raise brings a top-level window to the front and makes it key.
func (d *Desktop) raise(a *app, w *node) {
	if w.parent != nil {
		return
	}
	a.windows = append(slices.DeleteFunc(a.windows, func(c *node) bool { return c == w }), w)
	if a.focusedWindow != w {
		a.focusedWindow = w
		d.emit(a, "AXFocusedWindowChanged", w, nil)
	}
}

// scrollToVisible scrolls the nearest scroll area around n until n is inside its frame: the
// area's content (everything but its scroll bars) moves.
func (d *Desktop) scrollToVisible(a *app, n *node) {
	area := n.parent.ancestorOrSelf(func(p *node) bool { return p.role == "AXScrollArea" })
	if area == nil || area.frame == nil || n.frame == nil {
		return
	}
	dx := inside(n.frame.X, n.frame.W, area.frame.X, area.frame.W)
	dy := inside(n.frame.Y, n.frame.H, area.frame.Y, area.frame.H)
	if dx == 0 && dy == 0 {
		return
	}
	for _, c := range area.children {
		if c.role != "AXScrollBar" {
			shift(c, dx, dy)
		}
	}
	d.emit(a, "AXLayoutChanged", area, nil)
}

// inside is how far a span [p, p+l] must move to lie within [v, v+vl], its start first.
func inside(p, l, v, vl float64) float64 {
	switch {
	case p < v:
		return v - p
	case p+l > v+vl:
		return max(v+vl-(p+l), v-p)
	}
	return 0
}

// step moves a slider's value by a tenth of its range, within the range.
func (d *Desktop) step(a *app, n *node, dir float64) {
	lo, hi := valueOr(n.min, 0), valueOr(n.max, 100)
	v, err := strconv.ParseFloat(n.value, 64)
	if err != nil {
		v = lo
	}
	d.setValue(a, n, formatNumber(clamp(v+dir*(hi-lo)/10, lo, hi)))
}

func clamp(v, lo, hi float64) float64 { return min(max(v, lo), hi) }

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
