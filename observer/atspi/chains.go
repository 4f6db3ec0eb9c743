package atspi

import (
	"context"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// The AT-SPI action chains. Their steps are the backend's primitives: Perform by action name
// (case-insensitive; a press-like name such as "click" or "toggle" runs whichever press-like
// action the element has: "Click", "Activate", "Press", ...), SetAttribute "text", "value",
// "focus", "selected" (through the parent's Selection) and "scroll_to", and physical input
// through XTEST.
//
// What GTK does to them (measured on GTK 3.24 and 4.8, see the research notes):
//   - a GTK4 check box has no action at all: toggle, check and uncheck fall to a pointer click;
//   - GTK4 answers GrabFocus and does nothing: focus carries Proof focused, so a focus that did
//     not happen falls through to a pointer click;
//   - a GTK4 button's DoAction takes effect ~250 ms later: click carries no proof (the request's
//     expect judges it), and the executor must give a stateful step time before it re-reads;
//   - neither GTK3 nor GTK4 implements Component.ScrollTo (GTK3 answers false, GTK4
//     NotSupported); Firefox and Chromium do. scroll_to then only succeeds for an element already
//     in view;
//   - Chromium names each element's action after what it does ("press", "jump", "check" or
//     "uncheck", "open", "select", "activate", "doDefault"), all press-like; a <select>'s options
//     refuse the menu's Selection.SelectChild and take their "select" action; no field has
//     EditableText, so text is typed (physical), the field focused by GrabFocus;
//   - text typing cannot take (past 64 KiB) is pasted: the clipboard holds it until the app
//     has taken it, then holds again what it held before;
//   - "Expand or contract" (GTK3 tree rows) and "Activate" (an expander) toggle: expand and
//     collapse act only when the state differs.

// Chains returns the AT-SPI chains by action name.
func Chains() observer.Chains {
	return observer.Chains{
		"click": {
			Steps: []observer.Step{
				observer.Perform("click"),
				observer.OnChildren(observer.Perform("click"), 3),
				observer.SetAttr("selected", true),
				observer.OnAncestors(observer.SetAttr("selected", true), 2),
				observer.PhysicalClick(),
			},
			Suggestion: "The element may not be interactable: use press with one of its actions, or click with physical input.",
		},
		"press": {
			// Dynamic: the action the request names ("Expand or contract", "Edit", ...).
			Steps:      []observer.Step{observer.Perform(observer.Dynamic)},
			Suggestion: "Use one of the element's actions (inspect lists them), or click.",
		},
		"set_value": {
			Steps: []observer.Step{
				observer.SetAttr("text", observer.Dynamic),
				observer.SetAttr("value", observer.Dynamic),
				observer.PhysicalText("ctrl+a", "focus"),
				observer.PhysicalPaste("ctrl+a", "ctrl+v", "focus"),
			},
			ProofText:  true,
			Suggestion: "Check that the element is an editable text field, a slider or a spin button; or set_value with physical input.",
		},
		"type": {
			Steps: []observer.Step{observer.AppendText("text"), observer.PhysicalText("ctrl+End", "focus"),
				observer.PhysicalPaste("ctrl+End", "ctrl+v", "focus")},
			ProofText:  true,
			Suggestion: "Use set_value to replace the text directly, or type with physical input.",
		},
		"focus": {
			Steps:      []observer.Step{observer.SetAttr("focus", true), observer.PhysicalClick()},
			Proof:      model.StateFocused,
			Suggestion: "Click the element with physical input to focus it (GTK4 ignores focus requests).",
		},
		"scroll_to": {
			Steps:      []observer.Step{observer.SetAttr("scroll_to", true), observer.VisibleInScrollContext(isScrollView)},
			Suggestion: "The toolkit cannot scroll the element into view (GTK does not implement it); scroll its container with physical input.",
		},
		"expand": {
			Steps:      []observer.Step{toggleTo("expand or contract", true), toggleTo("activate", true)},
			Stateful:   true,
			Proof:      model.StateExpanded,
			Suggestion: "Click the element to open it instead.",
		},
		"collapse": {
			Steps:      []observer.Step{toggleTo("expand or contract", false), toggleTo("activate", false)},
			Stateful:   true,
			Suggestion: "Click the element to close it instead.",
		},
		"select": {
			Steps: []observer.Step{
				observer.SetAttr("selected", true),
				observer.Perform("select"), // a web <select>'s option: its parent menu refuses SelectChild
				observer.OnAncestors(observer.SetAttr("selected", true), 2),
				observer.PhysicalClick(),
			},
			Suggestion: "Click the element to select it, or click it with physical input.",
		},
		"toggle": {
			Steps:      []observer.Step{observer.Perform("toggle"), observer.PhysicalClick()},
			Stateful:   true,
			Suggestion: "Toggle works on check boxes, switches, toggle and radio buttons; use click for other elements.",
		},
		"check": {
			Steps:      []observer.Step{observer.Perform("toggle"), observer.PhysicalClick()},
			Stateful:   true,
			Proof:      model.StateChecked,
			Suggestion: "Check works on check boxes, switches, toggle and radio buttons; use click for other elements.",
		},
		"uncheck": {
			Steps:      []observer.Step{observer.Perform("toggle"), observer.PhysicalClick()},
			Stateful:   true,
			Suggestion: "Uncheck works on check boxes, switches and toggle buttons; use click for other elements.",
		},
		"key": {
			Steps:      []observer.Step{observer.PhysicalKeys()},
			Suggestion: "Keys are physical input: ask for physical input, and make sure the app's window can take the input focus.",
		},
	}
}

// toggleTo performs action, a toggle ("Expand or contract", an expander's "Activate"), on an
// expandable element only when its expanded state is not already want.
func toggleTo(action string, want bool) observer.Step {
	verb := "collapsed"
	if want {
		verb = "expanded"
	}
	return observer.Step{
		Kind: observer.StepCustom, Label: action + " unless " + verb,
		Run: func(ctx context.Context, b observer.Backend, t observer.StepTarget) error {
			n, err := observer.ReadOne(ctx, b, t.Ref)
			if err != nil {
				return err
			}
			if !n.States.Has(model.StateExpandable) {
				return model.Errorf(model.CodeNotSupported, "Expand and collapse work on expandable elements; use click.",
					"the element is not expandable")
			}
			if n.States.Has(model.StateExpanded) == want {
				return nil
			}
			return b.Perform(ctx, t.Ref, action)
		},
	}
}

// isScrollView is what scrolls in AT-SPI: a scroll pane, or a viewport inside one.
func isScrollView(n model.Node) bool {
	return n.Role == model.RoleScrollArea || n.PlatformRole == "viewport"
}
