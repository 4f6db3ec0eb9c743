package condition

import "github.com/axbus/axbus/model"

// View is what a condition is evaluated against: the engine's picture, now, of what a wait is
// about. What it holds is the engine's choice (the target window or all of the app's, a scope,
// every app for a desktop-wide wait); a condition only reads it.
type View interface {
	// Elements calls fn for each element, in tree order, until fn returns false.
	Elements(fn func(*model.Node) bool)
	// Windows lists the windows the wait is about. Window conditions look only at these; a
	// window_gone without a title holds when there are none.
	Windows() []model.Window
	// Focused is the focused element, or nil.
	Focused() *model.Node
	// Element is the element the request's snapshot calls target ("e12"), as it is now, or
	// nil when it is gone.
	Element(target string) *model.Node
}

// Holds evaluates c against v. When c holds it also returns what made it hold, so that the
// engine can read it again to confirm and show it in the reply: the first element in tree order
// (text, element, value, state), the focused element (focused) or the first window (window,
// dialog). For all, the first element and the first window any of its terms gave; for any, those
// of its first term that holds. A condition that holds because something is gone gives neither,
// and proves it only of a view that was read whole: an element past a walk's budget is not gone.
func (c *Condition) Holds(v View) (ok bool, element *model.Node, window *model.Window) {
	return c.HoldsWithin(v, nil)
}

// HoldsWithin is Holds metered by mt: once mt stops, what it returns proves nothing (cost.go).
func (c *Condition) HoldsWithin(v View, mt *Meter) (ok bool, element *model.Node, window *model.Window) {
	switch c.Kind {
	case KindAll:
		for _, sub := range c.Of {
			ok, e, w := sub.HoldsWithin(v, mt)
			if !ok {
				return false, nil, nil
			}
			if element == nil {
				element = e
			}
			if window == nil {
				window = w
			}
		}
		return true, element, window
	case KindAny:
		for _, sub := range c.Of {
			if ok, e, w := sub.HoldsWithin(v, mt); ok {
				return true, e, w
			}
		}
		return false, nil, nil
	case KindWindow, KindDialog:
		w := c.firstWindow(v, mt)
		return w != nil, nil, w
	case KindWindowGone:
		return c.firstWindow(v, mt) == nil, nil, nil
	case KindFocused:
		if n := v.Focused(); n != nil && c.matchesElement(n, mt) {
			return true, n, nil
		}
		return false, nil, nil
	}
	n := c.firstElement(v, mt)
	if c.Gone {
		return n == nil, nil, nil
	}
	return n != nil, n, nil
}

// firstElement is the element that passes c's element test: its Target when it names one,
// else the first in tree order; nil when there is none.
func (c *Condition) firstElement(v View, mt *Meter) *model.Node {
	if c.Target != "" {
		if n := v.Element(c.Target); n != nil && c.matchesElement(n, mt) {
			return n
		}
		return nil
	}
	var found *model.Node
	v.Elements(func(n *model.Node) bool {
		if c.matchesElement(n, mt) {
			found = n
		}
		return found == nil && !mt.Done()
	})
	return found
}

// firstWindow is the first window of v that c's window test accepts, or nil.
func (c *Condition) firstWindow(v View, mt *Meter) *model.Window {
	for _, w := range v.Windows() {
		if c.Kind == KindDialog && !isDialog(w.Role) {
			continue
		}
		switch {
		case c.window != "":
			if w.ID == c.window {
				return &w
			}
		case c.Title == nil || c.Title.matchesWithin(w.Title, mt):
			return &w
		}
	}
	return nil
}

// isDialog reports whether a window of this role is a dialog, sheet or alert.
func isDialog(r model.Role) bool {
	return r == model.RoleDialog || r == model.RoleSheet || r == model.RoleAlert
}
