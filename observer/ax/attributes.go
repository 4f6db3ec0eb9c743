package ax

import (
	"slices"

	"github.com/axbus/axbus/model"
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
	Frame    *model.Rect // AXPosition + AXSize, global coordinates
	Enabled  bool        // AXEnabled
	Focused  bool        // AXFocused
	Selected bool        // AXSelected
	// Expanded is AXExpanded (AXDisclosing for outline rows); nil when the element has neither.
	Expanded *bool
	Modal    bool // AXModal
	// Settable lists the attributes AXUIElementIsAttributeSettable allows to set.
	Settable []string
	Actions  []string // AXUIElementCopyActionNames
	Children []model.NodeRef
}

// Node turns the attributes into an model.Node. A secure text field's value is dropped here,
// so no caller can leak it.
func (a *Attributes) Node(ref model.NodeRef) model.Node {
	role := NormaliseRole(a.Role, a.Subrole)
	n := model.Node{
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
	case role == model.RoleText:
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

func (a *Attributes) states(role model.Role) model.States {
	var s model.States
	set := func(on bool, st model.States) {
		if on {
			s |= st
		}
	}
	settable := func(attr string) bool { return slices.Contains(a.Settable, attr) }
	set(a.Enabled, model.StateEnabled)
	set(a.Focused, model.StateFocused)
	set(settable("AXFocused"), model.StateFocusable)
	set(a.Selected, model.StateSelected)
	set(settable("AXSelected"), model.StateSelectable)
	set(a.Modal || role == model.RoleSheet, model.StateModal)
	if a.Expanded != nil {
		s |= model.StateExpandable
		set(*a.Expanded, model.StateExpanded)
	}
	switch role {
	case model.RoleCheckbox, model.RoleRadio, model.RoleSwitch, model.RoleToggleButton, model.RoleTab:
		set(a.Value == "1", model.StateChecked)
		set(a.Value == "2", model.StateMixed) // NSControlStateValueMixed
	case model.RoleTextField, model.RoleTextArea, model.RolePassword, model.RoleSearchField, model.RoleComboBox:
		set(settable("AXValue"), model.StateEditable)
		set(!settable("AXValue"), model.StateReadOnly)
		set(role == model.RoleTextArea, model.StateMultiLine)
	}
	return s
}
