package condition

import (
	"github.com/axbus/axbus/model"
	"github.com/axbus/axbus/observer"
)

// UniqueLocator is a locator that finds exactly the element at index of a window's walk (its
// nodes in pre-order, with their parents), written as a person would: the element's role and
// name (its identifier, label or description when it has no name); within its nearest named
// ancestor (>>) when that is not unique; nth only as a last resort. A dialog's element's locator
// begins with the dialog, so that it is not looked for in the app's other windows. It is nil
// when index is out of the walk.
func UniqueLocator(win model.Window, nodes []observer.Walked, index int) *Locator {
	if index < 0 || index >= len(nodes) {
		return nil
	}
	tree := walked{win: win, nodes: nodes}
	target := nodes[index].Ref
	var first []LocatorStep
	if isDialog(win.Role) && win.Title != "" {
		first = []LocatorStep{{Cond: &Condition{Kind: KindDialog, Title: Exact(win.Title)}}}
	}
	own := LocatorStep{Cond: describe(&nodes[index].Node)}
	unique := func(steps ...LocatorStep) *Locator {
		l := &Locator{Steps: append(append([]LocatorStep{}, first...), steps...)}
		found := l.Find([]Tree{tree}, nil)
		if len(found) == 1 && found[0].Node.Ref == target {
			return l
		}
		return nil
	}
	if l := unique(own); l != nil {
		return l
	}
	for p := nodes[index].Parent; p >= 0 && p < len(nodes); p = nodes[p].Parent {
		if a := describe(&nodes[p].Node); a.Name != nil || a.Identifier != nil {
			if l := unique(LocatorStep{Cond: a}, own); l != nil {
				return l
			}
		}
	}
	// The last resort: the target's place among the elements like it, in tree order.
	l := &Locator{Steps: append(append([]LocatorStep{}, first...), own)}
	for i, f := range l.Find([]Tree{tree}, nil) {
		if f.Node.Ref == target {
			l.Steps[len(l.Steps)-1].Nth = i + 1
			return l
		}
	}
	return l
}

// describe is the element condition a person would name n by: its role and name, or, without a
// name, its identifier, label or description.
func describe(n *model.Node) *Condition {
	c := &Condition{Kind: KindElement, Role: string(n.Role)}
	switch {
	case n.Name != "":
		c.Name = Exact(n.Name)
	case n.Identifier != "":
		c.Identifier = Exact(n.Identifier)
	case n.Label != "":
		c.Label = Exact(n.Label)
	case n.Description != "":
		c.Description = Exact(n.Description)
	}
	return c
}

// walked is a window's walk as a tree: its nodes in pre-order, each with its depth.
type walked struct {
	win   model.Window
	nodes []observer.Walked
}

func (t walked) Window() model.Window { return t.win }

func (t walked) Each(fn func(*model.Node) bool) {
	for i := range t.nodes {
		if !fn(&t.nodes[i].Node) {
			return
		}
	}
}

func (t walked) EachUnder(ref model.NodeRef, fn func(*model.Node) bool) {
	for i := range t.nodes {
		if t.nodes[i].Ref != ref {
			continue
		}
		for j := i; j < len(t.nodes) && (j == i || t.nodes[j].Depth > t.nodes[i].Depth); j++ {
			if !fn(&t.nodes[j].Node) {
				return
			}
		}
		return
	}
}
