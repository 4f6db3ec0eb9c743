package sim

import (
	"strconv"
	"strings"
)

// instances expands a node with a Repeat into its copies; any other node is its own only copy.
func (s NodeSpec) instances() []NodeSpec {
	r := s.Repeat
	if r == nil {
		return []NodeSpec{s}
	}
	first := 1
	if r.First != nil {
		first = *r.First
	}
	out := make([]NodeSpec, r.Count)
	for k := range out {
		out[k] = s.copyAs(strconv.Itoa(first+k), float64(k)*r.DX, float64(k)*r.DY)
		out[k].Repeat = nil
	}
	return out
}

// copyAs is a deep copy of s and its subtree with "%d" replaced by num and frames moved by
// (dx, dy).
func (s NodeSpec) copyAs(num string, dx, dy float64) NodeSpec {
	sub := func(v string) string { return strings.ReplaceAll(v, "%d", num) }
	c := s
	c.ID, c.Title, c.Description, c.Help, c.Identifier = sub(s.ID), sub(s.Title), sub(s.Description), sub(s.Help), sub(s.Identifier)
	if s.Value != nil {
		v := Text(sub(string(*s.Value)))
		c.Value = &v
	}
	if len(s.Frame) == 4 {
		c.Frame = []float64{s.Frame[0] + dx, s.Frame[1] + dy, s.Frame[2], s.Frame[3]}
	}
	c.Children = make([]NodeSpec, len(s.Children))
	for i, ch := range s.Children {
		c.Children[i] = ch.copyAs(num, dx, dy)
	}
	return c
}

// expandRepeats returns specs with every repeat replaced by its copies.
func expandRepeats(specs []NodeSpec) []NodeSpec {
	out := make([]NodeSpec, 0, len(specs))
	for _, s := range specs {
		out = append(out, s.instances()...)
	}
	return out
}
