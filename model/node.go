package model

// NodeRef is a backend's opaque handle on one element (a D-Bus object reference, a retained AX
// element token, a sim node id). It is valid within one app instance.
type NodeRef string

// Node is one element as a backend read it: its attributes and its children's handles.
type Node struct {
	Ref          NodeRef
	Role         Role
	PlatformRole string
	Subrole      string
	Name         string
	Description  string
	// Label is the text of a labelling element (AT-SPI labelled-by, AX title element).
	Label      string
	Identifier string
	// Value is the element's value as text: an entry's contents, a slider's number, a checkbox's
	// 0/1. Backends never fill it for secure fields.
	Value    string
	HasValue bool
	// Text is the text content of a text-bearing element that is not an editable value
	// (a label's text, a paragraph), when it differs from Name.
	Text string
	// Bounds is nil when the platform reports none; Offscreen is set when it reports the element
	// as not on screen (AT-SPI INT_MIN or empty extents).
	Bounds    *Rect
	Offscreen bool
	States    States
	Actions   []string
	// Secure marks a password field: its text is never read, stored or published.
	Secure     bool
	Children   []NodeRef
	ChildCount int
	// Parent is the element's parent when the platform says (AT-SPI Parent, AXParent): an element
	// announced on its own (AXCreated) is placed under it.
	Parent NodeRef
	// Err is set when the element could not be read (gone, app busy); the other fields are then empty.
	Err error
}

// Summary is the short form of n carried in events.
func (n *Node) Summary() *ElementSummary {
	s := &ElementSummary{Role: n.Role, PlatformRole: n.PlatformRole, Name: n.Name, States: n.States, Bounds: n.Bounds}
	if n.HasValue && !n.Secure {
		s.Value = n.Value
	}
	if n.Name == "" && n.Label != "" {
		s.Name = n.Label
	}
	return s
}

// ElementSummary describes an element in an event without a snapshot.
type ElementSummary struct {
	Role         Role   `json:"role"`
	PlatformRole string `json:"platform_role,omitempty"`
	Name         string `json:"name,omitempty"`
	Value        string `json:"value,omitempty"`
	States       States `json:"states,omitempty"`
	Bounds       *Rect  `json:"bounds,omitempty"`
}
