package condition

import (
	"slices"

	"github.com/axbus/axbus/model"
)

// AppearsOnly reports whether c holds as soon as one element matches (text or element
// conditions naming no element id, not gone, alone or in an any): then only the elements a
// change touched need looking at, which keeps a thousand waits on one app cheap.
func (c *Condition) AppearsOnly() bool {
	switch c.Kind {
	case KindText, KindElement:
		return !c.Gone && c.Target == ""
	case KindAny:
		for _, t := range c.Of {
			if !t.AppearsOnly() {
				return false
			}
		}
		return true
	}
	return false
}

// MatchesAnyOf reports whether one of nodes passes the element test of c, a condition that
// AppearsOnly: whether c holds of a view of these nodes, without making one. Metered by mt: once
// it stops, false proves nothing.
func (c *Condition) MatchesAnyOf(nodes []*model.Node, mt *Meter) bool {
	if c.Kind == KindAny {
		return slices.ContainsFunc(c.Of, func(t *Condition) bool { return t.MatchesAnyOf(nodes, mt) })
	}
	return slices.ContainsFunc(nodes, func(n *model.Node) bool { return c.matchesElement(n, mt) })
}
