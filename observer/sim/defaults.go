package sim

import "slices"

// Defaults by AX role for nodes that do not list their actions, settable attributes or value.
var (
	pressable = []string{"AXButton", "AXCheckBox", "AXRadioButton", "AXLink", "AXMenuItem", "AXMenuBarItem",
		"AXMenuButton", "AXDisclosureTriangle", "AXColorWell", "AXDockItem"}
	adjustable = []string{"AXSlider", "AXIncrementor"}
	textEntry  = []string{"AXTextField", "AXTextArea", "AXSecureTextField", "AXComboBox"}
	toggles    = []string{"AXCheckBox", "AXRadioButton"}
	focusable  = []string{"AXTextField", "AXTextArea", "AXSecureTextField", "AXComboBox", "AXButton", "AXCheckBox",
		"AXRadioButton", "AXSlider", "AXPopUpButton", "AXTable", "AXOutline", "AXList", "AXLink"}
	windowRoles = []string{"AXWindow", "AXSheet"}
)

// settableAttributes are the attributes the simulator knows how to set.
var settableAttributes = []string{"AXValue", "AXFocused", "AXSelected", "AXExpanded", "AXDisclosing",
	"AXSelectedRows", "AXSelectedChildren"}

// selectionAttribute is the attribute through which a container selects its children: the
// rows of a table or outline, the children of a list; "" for other roles.
func selectionAttribute(role string) string {
	switch role {
	case "AXTable", "AXOutline":
		return "AXSelectedRows"
	case "AXList":
		return "AXSelectedChildren"
	}
	return ""
}

func defaultActions(role string, inScrollArea bool) []string {
	var out []string
	switch {
	case slices.Contains(pressable, role):
		out = []string{"AXPress"}
	case role == "AXPopUpButton":
		out = []string{"AXPress", "AXShowMenu"}
	case slices.Contains(adjustable, role):
		out = []string{"AXIncrement", "AXDecrement"}
	case slices.Contains(textEntry, role):
		out = []string{"AXConfirm", "AXShowMenu"}
	case slices.Contains(windowRoles, role):
		out = []string{"AXRaise"}
	}
	if inScrollArea && role != "AXScrollBar" {
		out = append(out, "AXScrollToVisible") // WebKit and AppKit offer it inside scroll views
	}
	return out
}

func defaultSettable(role string, expandable bool) []string {
	var out []string
	if slices.Contains(focusable, role) {
		out = append(out, "AXFocused")
	}
	if slices.Contains(textEntry, role) || slices.Contains(adjustable, role) {
		out = append(out, "AXValue")
	}
	if role == "AXRow" {
		out = append(out, "AXSelected")
	}
	if attr := selectionAttribute(role); attr != "" {
		out = append(out, attr)
	}
	if expandable {
		out = append(out, expandAttribute(role))
	}
	return out
}

// expandAttribute is the attribute that expands an element: outline rows disclose.
func expandAttribute(role string) string {
	if role == "AXRow" {
		return "AXDisclosing"
	}
	return "AXExpanded"
}

// defaultValue is the value of a node whose fixture gives none; false when it has no AXValue.
func defaultValue(role string, min *float64) (string, bool) {
	switch {
	case slices.Contains(textEntry, role), role == "AXStaticText":
		return "", true
	case slices.Contains(toggles, role):
		return "0", true
	case slices.Contains(adjustable, role):
		return formatNumber(valueOr(min, 0)), true
	}
	return "", false
}

func valueOr(p *float64, def float64) float64 {
	if p != nil {
		return *p
	}
	return def
}

// isTextEntry reports whether typing goes into the role's value.
func isTextEntry(role string) bool { return slices.Contains(textEntry, role) }

// isAdjustable reports whether the role's value is a number within a range.
func isAdjustable(role string) bool { return slices.Contains(adjustable, role) }
