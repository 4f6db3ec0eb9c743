package ax

import (
	"slices"

	"github.com/axbus/axbus/observer"
)

// Attributes are the AX attribute values of one element, as a backend copies them in one
// AXUIElementCopyMultipleAttributeValues round trip (or as the simulator holds them).
type Attributes struct {
	Role, Subrole string
	Title         string // AXTitle
	Description   string // AXDescription
	Help          string // AXHelp
	Identifier    string // AXIdentifier
	// Value is AXValue as text (a string, a number, a checkbox's 0/1/2); HasValue is false when
	// the element has no AXValue.
	Value    string
	HasValue bool
	Frame    *observer.Rect // AXPosition + AXSize, global coordinates
	Enabled  bool           // AXEnabled
	Focused  bool           // AXFocused
	Selected bool           // AXSelected
	// Expanded is AXExpanded (AXDisclosing for outline rows); nil when the element has neither.
	Expanded *bool
	Modal    bool // AXModal
	// Settable lists the attributes AXUIElementIsAttributeSettable allows to set.
	Settable []string
	Actions  []string // AXUIElementCopyActionNames
	Children []observer.NodeRef
}

// Node turns the attributes into an observer.Node. A secure text field's value is dropped here,
// so no caller can leak it.
func (a *Attributes) Node(ref observer.NodeRef) observer.Node {
	role := NormaliseRole(a.Role, a.Subrole)
	n := observer.Node{
		Ref: ref, Role: role, PlatformRole: a.Role, Subrole: a.Subrole,
		Name: a.Title, Description: a.Description, Identifier: a.Identifier,
		Bounds: a.Frame, States: a.states(role), Actions: a.Actions,
		Secure: IsSecure(a.Role, a.Subrole), Children: a.Children, ChildCount: len(a.Children),
	}
	if n.Description == "" {
		n.Description = a.Help // AXHelp is the tooltip: the only description many controls have
	}
	switch {
	case n.Secure:
	case role == observer.RoleText:
		// A static text's text is its AXValue; it is also its name.
		n.Text = a.Value
		if n.Name == "" {
			n.Name = a.Value
		}
	default:
		n.Value, n.HasValue = a.Value, a.HasValue
	}
	return n
}

func (a *Attributes) states(role observer.Role) observer.States {
	var s observer.States
	set := func(on bool, st observer.States) {
		if on {
			s |= st
		}
	}
	settable := func(attr string) bool { return slices.Contains(a.Settable, attr) }
	set(a.Enabled, observer.StateEnabled)
	set(a.Focused, observer.StateFocused)
	set(settable("AXFocused"), observer.StateFocusable)
	set(a.Selected, observer.StateSelected)
	set(settable("AXSelected"), observer.StateSelectable)
	set(a.Modal || role == observer.RoleSheet, observer.StateModal)
	if a.Expanded != nil {
		s |= observer.StateExpandable
		set(*a.Expanded, observer.StateExpanded)
	}
	switch role {
	case observer.RoleCheckbox, observer.RoleRadio, observer.RoleSwitch, observer.RoleToggleButton, observer.RoleTab:
		set(a.Value == "1", observer.StateChecked)
		set(a.Value == "2", observer.StateMixed) // NSControlStateValueMixed
	case observer.RoleTextField, observer.RoleTextArea, observer.RolePassword, observer.RoleSearchField, observer.RoleComboBox:
		set(settable("AXValue"), observer.StateEditable)
		set(!settable("AXValue"), observer.StateReadOnly)
		set(role == observer.RoleTextArea, observer.StateMultiLine)
	}
	return s
}
