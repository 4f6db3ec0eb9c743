package observer

import "context"

// The steps every platform's chains are made of. They use the Backend interface alone, so a
// chain built from them runs on any backend, the simulated desktop included.

// Perform is a step that performs the platform's action (or Dynamic: the request's).
func Perform(action string) Step { return Step{Kind: StepPerform, Action: action} }

// SetAttr is a step that sets the platform's attribute to value (or Dynamic: the request's value).
func SetAttr(attr string, value any) Step { return Step{Kind: StepSetAttr, Attr: attr, Value: value} }

// OnChildren is inner on each of the first limit children until one works.
func OnChildren(inner Step, limit int) Step {
	return Step{Kind: StepOnChildren, Inner: &inner, Limit: limit}
}

// OnAncestors is inner on each of the nearest limit ancestors until one works.
func OnAncestors(inner Step, limit int) Step {
	return Step{Kind: StepOnAncestors, Inner: &inner, Limit: limit}
}

// PhysicalClick is a left click at the element's centre.
func PhysicalClick() Step {
	return Step{Kind: StepPhysical, Input: Input{Kind: InputClick, Button: 1}}
}

// PhysicalKeys presses the request's key combination in the app.
func PhysicalKeys() Step { return Step{Kind: StepPhysical, Input: Input{Kind: InputKey}} }

// PhysicalText focuses the element, presses keys (select all, to replace the text; go to the
// end, to append to it) and types the request's value: several inputs in a row. It focuses
// the element by setting focusAttr to true where that takes (the pointer stays where it is),
// else by a click at its centre (GTK4 ignores focus requests).
func PhysicalText(keys, focusAttr string) Step {
	return Step{
		Kind: StepPhysical, Label: "focus, " + keys + ", type", Input: Input{Kind: InputType},
		Run: func(ctx context.Context, b Backend, t StepTarget) error {
			inputs := []Input{
				{Kind: InputKey, PID: t.App.PID, Keys: keys},
				{Kind: InputType, PID: t.App.PID, Text: t.Value},
			}
			if !focusedBy(ctx, b, t.Ref, focusAttr) {
				n, err := ReadOne(ctx, b, t.Ref)
				if err != nil {
					return err
				}
				if n.Bounds == nil || n.Bounds.Empty() || n.Offscreen {
					return Errorf(CodeNotSupported, "Scroll the element into view first.", "the element has no bounds on screen to click")
				}
				x, y := n.Bounds.Center() // as it is now: an earlier step may have scrolled it
				inputs = append([]Input{{Kind: InputClick, PID: t.App.PID, X: x, Y: y, Button: 1}}, inputs...)
			}
			for _, in := range inputs {
				if err := b.Input(ctx, in); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// focusedBy sets the element's focus attribute and reports whether it then is focused.
func focusedBy(ctx context.Context, b Backend, ref NodeRef, attr string) bool {
	if b.SetAttribute(ctx, ref, attr, true) != nil {
		return false
	}
	n, err := ReadOne(ctx, b, ref)
	return err == nil && n.States.Has(StateFocused)
}

// AppendText reads the element's value and sets attr to it followed by the request's text. A
// secure field's value is never read, so it is not appended to: physical typing does it.
func AppendText(attr string) Step {
	return Step{
		Kind: StepCustom, Label: "append to " + attr,
		Run: func(ctx context.Context, b Backend, t StepTarget) error {
			n, err := ReadOne(ctx, b, t.Ref)
			if err != nil {
				return err
			}
			switch {
			case n.Secure:
				return Errorf(CodeNotSupported, "Type into a password field with physical input.",
					"a password field's text is never read, so it cannot be appended to")
			case !n.HasValue:
				return Errorf(CodeNotSupported, "Type into a text field.", "the element has no text value")
			}
			return b.SetAttribute(ctx, t.Ref, attr, n.Value+t.Value)
		},
	}
}

// VisibleInScrollContext succeeds when the element is in view: its centre inside the nearest
// ancestor that isViewport says is a scroll view, else inside its outermost ancestor with bounds
// (the window). It moves nothing and sends no input: it takes an element already in view, or one
// an earlier step scrolled although it reported an error, for scrolled.
func VisibleInScrollContext(isViewport func(Node) bool) Step {
	return Step{
		Kind: StepCustom, Label: "visible in scroll context",
		Run: func(ctx context.Context, b Backend, t StepTarget) error {
			return inView(ctx, b, t.Ref, isViewport)
		},
	}
}

// maxScrollDepth bounds the walk up to the element's scroll view.
const maxScrollDepth = 32

func inView(ctx context.Context, b Backend, ref NodeRef, isViewport func(Node) bool) error {
	n, err := ReadOne(ctx, b, ref)
	if err != nil {
		return err
	}
	if n.Offscreen || n.Bounds == nil || n.Bounds.Empty() {
		return notInView("the element reports no bounds on screen")
	}
	x, y := n.Bounds.Center()
	var view *Rect
	for p, depth := n.Parent, 0; p != "" && depth < maxScrollDepth; depth++ {
		a, err := ReadOne(ctx, b, p)
		if err != nil {
			return err
		}
		if a.Role == RoleApplication {
			break // above it lies the desktop
		}
		if a.Bounds != nil && !a.Offscreen {
			view = a.Bounds
			if isViewport(a) {
				break
			}
		}
		p = a.Parent
	}
	if view != nil && !(x >= view.X && x < view.X+view.W && y >= view.Y && y < view.Y+view.H) {
		return notInView("the element lies outside its scroll view")
	}
	return nil
}

func notInView(why string) error {
	return Errorf(CodeActionFailed, "Scroll its container (physical scroll input) and try again.", "the element is not in view: %s", why)
}

// ReadOne reads one element, its read error as the error.
func ReadOne(ctx context.Context, b Backend, ref NodeRef) (Node, error) {
	nodes := b.Read(ctx, []NodeRef{ref})
	if len(nodes) != 1 {
		return Node{}, Errorf(CodeInternal, "Retry.", "read of one element returned %d", len(nodes))
	}
	return nodes[0], nodes[0].Err
}
