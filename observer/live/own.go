package live

import (
	"strings"

	"github.com/axbus/axbus/model"
)

// A backend's strings may share a buffer with many others: godbus decodes the strings of one
// D-Bus reply into a 4 KB buffer, so a copy that kept one name of a reply kept the whole buffer.
// The poller's copy of Chromium's 4,000-element window pinned 63 MB that way, 16 KB per
// element. What outlives a read (the poller's and the live windows' copies) owns its strings.

// owned is a copy of e whose strings are its own.
func owned(e model.DiffElement) model.DiffElement {
	e.PlatformRole, e.Name, e.Text = strings.Clone(e.PlatformRole), strings.Clone(e.Name), strings.Clone(e.Text)
	if e.Value != nil {
		v := strings.Clone(*e.Value)
		e.Value = &v
	}
	if e.Bounds != nil {
		b := *e.Bounds // a backend may allocate bounds with the rest of a reply
		e.Bounds = &b
	}
	return e
}

// ownNode gives n's strings their own memory.
func ownNode(n *model.Node) {
	n.PlatformRole, n.Subrole = strings.Clone(n.PlatformRole), strings.Clone(n.Subrole)
	n.Name, n.Description, n.Label = strings.Clone(n.Name), strings.Clone(n.Description), strings.Clone(n.Label)
	n.Identifier, n.Value, n.Text = strings.Clone(n.Identifier), strings.Clone(n.Value), strings.Clone(n.Text)
	if n.Actions != nil {
		acts := make([]string, len(n.Actions))
		for i, a := range n.Actions {
			acts[i] = strings.Clone(a)
		}
		n.Actions = acts
	}
	if n.Bounds != nil {
		b := *n.Bounds
		n.Bounds = &b
	}
}
