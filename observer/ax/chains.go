package ax

import (
	"context"
	"slices"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// The macOS action chains, after the AX-first chains of agent-desktop's macOS adapter: AX calls
// first (they need no focus and move no pointer), physical input last and only when the request
// asks for it. Custom steps use the observer.Backend interface alone, so they run on the real AX
// backend and on the simulated desktop alike.

// Chains returns the macOS chains by action name.
func Chains() observer.Chains {
	return observer.Chains{
		"click": {
			Steps: []observer.Step{
				observer.Perform("AXPress"),
				observer.Perform("AXConfirm"),
				observer.Perform("AXOpen"),
				observer.OnChildren(observer.Perform("AXPress"), 3),
				selectViaParent(),
				showAlternateUI(),
				withFocus(observer.Perform("AXPress")),
				observer.PhysicalClick(),
			},
			Suggestion: "The element may not be interactable: use press with one of its actions, or click with physical input.",
		},
		"press": {
			// Dynamic: the action the request names ("AXShowMenu", "AXIncrement", ...).
			Steps:      []observer.Step{observer.Perform(observer.Dynamic), withFocus(observer.Perform(observer.Dynamic))},
			Suggestion: "Use one of the element's actions (inspect lists them), or click.",
		},
		"set_value": {
			Steps: []observer.Step{
				observer.SetAttr("AXValue", observer.Dynamic),
				withFocus(observer.SetAttr("AXValue", observer.Dynamic)),
				observer.PhysicalText("cmd+a", "AXFocused"),
				observer.PhysicalPaste("cmd+a", "cmd+v", "AXFocused"),
			},
			ProofText:  true,
			Suggestion: "Check that the element is an editable text field or a slider; or clear it and type, or set_value with physical input.",
		},
		"type": {
			Steps: []observer.Step{
				observer.AppendText("AXValue"),
				withFocus(observer.AppendText("AXValue")),
				observer.PhysicalText("cmd+down", "AXFocused"),
				observer.PhysicalPaste("cmd+down", "cmd+v", "AXFocused"),
			},
			ProofText:  true,
			Suggestion: "Use set_value to replace the text directly, or type with physical input.",
		},
		"focus": {
			Steps: []observer.Step{
				observer.SetAttr("AXFocused", true),
				observer.Perform("AXPress"),
				observer.SetAttr("AXSelected", true),
			},
			Proof:      model.StateFocused,
			Suggestion: "Click the element to focus it instead.",
		},
		"scroll_to": {
			Steps:      []observer.Step{observer.Perform("AXScrollToVisible"), observer.VisibleInScrollContext(isScrollArea)},
			Suggestion: "The element may not be in a scrollable container; scroll its container instead.",
		},
		"expand": {
			Steps: []observer.Step{
				observer.Perform("AXExpand"),
				observer.SetAttr("AXDisclosing", true),
				observer.SetAttr("AXExpanded", true),
			},
			Proof:      model.StateExpanded,
			Suggestion: "Click the element to open it instead.",
		},
		"collapse": {
			Steps: []observer.Step{
				observer.Perform("AXCollapse"),
				observer.SetAttr("AXDisclosing", false),
				observer.SetAttr("AXExpanded", false),
			},
			Suggestion: "Click the element to close it instead.",
		},
		"select": {
			Steps:      []observer.Step{observer.SetAttr("AXSelected", true), selectViaParent(), observer.Perform("AXPress")},
			Suggestion: "Click the element to select it, or click it with physical input.",
		},
		"toggle": {
			Steps:      []observer.Step{observer.Perform("AXPress"), observer.PhysicalClick()},
			Stateful:   true,
			Suggestion: "Toggle works on checkboxes, switches and radio buttons; use click for other elements.",
		},
		"check": {
			Steps:      []observer.Step{observer.Perform("AXPress"), observer.PhysicalClick()},
			Stateful:   true,
			Proof:      model.StateChecked,
			Suggestion: "Check works on checkboxes, switches and radio buttons; use click for other elements.",
		},
		"uncheck": {
			Steps:      []observer.Step{observer.Perform("AXPress"), observer.PhysicalClick()},
			Stateful:   true,
			Suggestion: "Uncheck works on checkboxes and switches; use click for other elements.",
		},
		"key": {
			Steps:      []observer.Step{observer.PhysicalKeys()},
			Suggestion: "Keys are physical input: ask for physical input, and make sure the app can take keyboard focus.",
		},
	}
}

func withFocus(inner observer.Step) observer.Step {
	return observer.Step{Kind: observer.StepWithFocus, Attr: "AXFocused", Value: true, Inner: &inner}
}

// selectViaParent selects the element's row: the element itself, or the nearest row among its
// ancestors (a cell's text, a cell), by AXSelected on the row, else by the AXSelectedRows of the
// table or outline holding it (AXSelectedChildren of a list), set through the container's handle
// with the row's handle as the value ([]model.NodeRef).
func selectViaParent() observer.Step {
	return observer.Step{Kind: observer.StepCustom, Label: "select via parent", Run: runSelectViaParent}
}

func runSelectViaParent(ctx context.Context, b observer.Backend, t observer.StepTarget) error {
	n, err := observer.ReadOne(ctx, b, t.Ref)
	if err != nil {
		return err
	}
	// The row: the element, or an ancestor at most three levels up.
	for range 3 {
		if n.PlatformRole == "AXRow" || n.Parent == "" {
			break
		}
		if n, err = observer.ReadOne(ctx, b, n.Parent); err != nil {
			return err
		}
	}
	if n.PlatformRole != "AXRow" && !n.States.Has(model.StateSelectable) {
		return clickInstead("the element is not in a row or list item")
	}
	if n.States.Has(model.StateSelectable) {
		if err := b.SetAttribute(ctx, n.Ref, "AXSelected", true); err == nil || !notSupported(err) {
			return err
		}
	}
	if n.Parent == "" {
		return clickInstead("the row has no parent to select it in")
	}
	p, err := observer.ReadOne(ctx, b, n.Parent)
	if err != nil {
		return err
	}
	attr := ""
	switch p.PlatformRole {
	case "AXTable", "AXOutline":
		attr = "AXSelectedRows"
	case "AXList":
		attr = "AXSelectedChildren"
	default:
		return clickInstead(
			"the row's parent is a %s, not a table, outline or list", p.PlatformRole)
	}
	return b.SetAttribute(ctx, p.Ref, attr, []model.NodeRef{n.Ref})
}

// showAlternateUI performs AXShowAlternateUI (hover-only controls: a sidebar item's eject
// button), waits for the alternate UI to appear and presses the first of the element's children
// that takes AXPress. Only elements that offer the action try it.
func showAlternateUI() observer.Step {
	return observer.Step{Kind: observer.StepCustom, Label: "show alternate UI", Run: runShowAlternateUI}
}

// alternateUIDelay is how long an app takes to show its alternate UI.
const alternateUIDelay = 100 * time.Millisecond

func runShowAlternateUI(ctx context.Context, b observer.Backend, t observer.StepTarget) error {
	if !slices.Contains(t.Node.Actions, "AXShowAlternateUI") {
		return clickInstead("the element has no alternate UI")
	}
	if err := b.Perform(ctx, t.Ref, "AXShowAlternateUI"); err != nil {
		return err
	}
	if err := sleep(ctx, alternateUIDelay); err != nil {
		return err
	}
	n, err := observer.ReadOne(ctx, b, t.Ref)
	if err != nil {
		return err
	}
	var last error = clickInstead("the alternate UI shows nothing to press")
	for _, c := range n.Children[:min(len(n.Children), 3)] {
		if last = b.Perform(ctx, c, "AXPress"); last == nil {
			return nil
		}
	}
	return last
}

// isScrollArea is what scrolls on macOS: an AXScrollArea.
func isScrollArea(n model.Node) bool { return n.Role == model.RoleScrollArea }

func notSupported(err error) bool { return model.CodeOf(err) == model.CodeNotSupported }

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return model.Errorf(model.CodeTimeout, "", "%v", ctx.Err()).Wrap(ctx.Err())
	}
}

// clickInstead is a selection or an alternate UI the element does not offer: a click is the
// way left.
func clickInstead(format string, args ...any) *model.Error {
	return model.Errorf(model.CodeNotSupported, "Click the element instead.", format, args...)
}
