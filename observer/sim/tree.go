package sim

import (
	"slices"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer/ax"
)

// node is one live element of a simulated app.
type node struct {
	id, role, subrole                    string
	title, description, help, identifier string
	value                                string
	hasValue                             bool
	min, max                             *float64
	frame                                *model.Rect
	enabled, selected, modal             bool
	hidden                               bool // a window ordered out: not listed, still read (SetHidden)
	expanded                             *bool
	actions, settable                    []string
	parent                               *node
	children                             []*node
}

// newNode builds the node of a spec (repeats already expanded), without its children.
func newNode(s NodeSpec, parent *node) *node {
	n := &node{
		id: s.ID, role: s.Role, subrole: s.Subrole, title: s.Title, description: s.Description,
		help: s.Help, identifier: s.Identifier, min: s.Min, max: s.Max, enabled: true,
		selected: s.Selected, modal: s.Modal, expanded: s.Expanded, parent: parent,
		actions: s.Actions, settable: s.Settable,
	}
	if s.Enabled != nil {
		n.enabled = *s.Enabled
	}
	if len(s.Frame) == 4 {
		n.frame = &model.Rect{X: s.Frame[0], Y: s.Frame[1], W: s.Frame[2], H: s.Frame[3]}
	}
	if s.Value != nil {
		n.value, n.hasValue = string(*s.Value), true
	} else {
		n.value, n.hasValue = defaultValue(s.Role, s.Min)
	}
	if s.Actions == nil {
		n.actions = defaultActions(s.Role, n.inScrollArea())
	}
	if s.Settable == nil {
		n.settable = defaultSettable(s.Role, s.Expanded != nil)
	}
	return n
}

func (n *node) inScrollArea() bool {
	for p := n.parent; p != nil; p = p.parent {
		if p.role == "AXScrollArea" {
			return true
		}
	}
	return false
}

func (n *node) normalisedRole() model.Role { return ax.NormaliseRole(n.role, n.subrole) }

func (n *node) canSet(attr string) bool { return slices.Contains(n.settable, attr) }

func (n *node) canDo(action string) bool { return slices.Contains(n.actions, action) }

// window is the nearest window or sheet holding n, n included.
func (n *node) window() *node {
	for w := n; w != nil; w = w.parent {
		if slices.Contains(windowRoles, w.role) {
			return w
		}
	}
	return nil
}

// top is n's top-level window.
func (n *node) top() *node {
	for n.parent != nil {
		n = n.parent
	}
	return n
}

// within reports whether n is anc or lies under it.
func (n *node) within(anc *node) bool {
	for ; n != nil; n = n.parent {
		if n == anc {
			return true
		}
	}
	return false
}

// each calls fn for n and its subtree in pre-order.
func (n *node) each(fn func(*node)) {
	fn(n)
	for _, c := range n.children {
		c.each(fn)
	}
}

// ancestorOrSelf is the nearest of n and its ancestors for which ok holds.
func (n *node) ancestorOrSelf(ok func(*node) bool) *node {
	for ; n != nil; n = n.parent {
		if ok(n) {
			return n
		}
	}
	return nil
}

// attributes are n's AX attributes, without its children.
func (n *node) attributes(focused bool) ax.Attributes {
	return ax.Attributes{
		Role: n.role, Subrole: n.subrole, Title: n.title, Description: n.description, Help: n.help,
		Identifier: n.identifier, Value: n.value, HasValue: n.hasValue, Frame: n.bounds(),
		Enabled: n.enabled, Focused: focused, Selected: n.selected, Expanded: n.expanded, Modal: n.modal,
		Settable: slices.Clone(n.settable), Actions: slices.Clone(n.actions),
	}
}

// bounds is a copy of n's frame: callers keep it while the tree changes.
func (n *node) bounds() *model.Rect {
	if n.frame == nil {
		return nil
	}
	r := *n.frame
	return &r
}
