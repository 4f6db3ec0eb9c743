package observer

import (
	"context"
	"time"

	"github.com/axbus/axbus/model"
)

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
			return focusThen(ctx, b, t, focusAttr, Input{Kind: InputKey, PID: t.App.PID, Keys: keys},
				Input{Kind: InputType, PID: t.App.PID, Text: t.Value})
		},
	}
}

// pasteTaken bounds the wait for the app to take the text a paste put on the clipboard.
const pasteTaken = 2 * time.Second

// PhysicalPaste is typing by the clipboard, for text typing cannot take (too long, keys the
// keyboard cannot make): it puts the request's value on the clipboard, focuses the element as
// PhysicalText does, presses keys (select all or go to the end) and paste (ctrl+v), and puts
// back what the clipboard held once the app has taken the text. It refuses a secure field (its
// text would sit on the clipboard, for every app to read) and a clipboard that holds something
// other than text (it could not be put back).
func PhysicalPaste(keys, paste, focusAttr string) Step {
	return Step{
		Kind: StepPhysical, Label: "focus, " + keys + ", paste", Input: Input{Kind: InputType},
		Run: func(ctx context.Context, b Backend, t StepTarget) error {
			cb, ok := b.(Clipboard)
			switch {
			case !ok:
				return model.Errorf(model.CodeNotSupported, "Type the text in parts.", "this backend has no clipboard to paste through")
			case t.Node.Secure:
				return model.Errorf(model.CodeNotSupported, "Type into a password field in parts of at most 64 KiB.",
					"a password is never put on the clipboard")
			}
			if err := model.CheckClipboardText(t.Value); err != nil {
				return err
			}
			was, had, err := cb.ReadClipboard(ctx)
			if err != nil {
				return err // NOT_SUPPORTED for an image: pasting would lose it
			}
			taken, err := cb.WriteClipboard(ctx, t.Value, true)
			if err != nil {
				return err
			}
			defer func() { _, _ = cb.WriteClipboard(context.WithoutCancel(ctx), was, had) }()
			if err := focusThen(ctx, b, t, focusAttr, Input{Kind: InputKey, PID: t.App.PID, Keys: keys}); err != nil {
				return err
			}
			pasted := taken() // from now: Chromium fetches a new clipboard before any paste
			if err := b.Input(ctx, Input{Kind: InputKey, PID: t.App.PID, Keys: paste}); err != nil {
				return err
			}
			select {
			case <-pasted:
				// The app took the text, and may still be reading it: Chromium drops a paste
				// when the clipboard changes under it. It is put back once the text is in.
				return valueChanged(ctx, b, t.Ref, t.Node.Value, pasteTaken)
			case <-ctx.Done():
				return model.AsError(ctx.Err())
			case <-time.After(pasteTaken):
				return model.Errorf(model.CodeActionFailed, "Check that the element takes a paste (ctrl+v).", "the app did not take the pasted text within %v", pasteTaken)
			}
		},
	}
}

// valueChanged re-reads the element until its value is no longer was, for at most limit.
func valueChanged(ctx context.Context, b Backend, ref model.NodeRef, was string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		n, err := ReadOne(ctx, b, ref)
		if err != nil {
			return err
		}
		if n.Value != was {
			return nil
		}
		if time.Now().After(deadline) {
			return model.Errorf(model.CodeActionFailed, "Check that the element takes a paste (ctrl+v).", "the element's text did not change within %v of the paste", limit)
		}
		select {
		case <-ctx.Done():
			return model.AsError(ctx.Err())
		case <-time.After(delay):
		}
	}
}

// focusThen focuses the element (focusAttr, else a click at its centre) and sends inputs.
func focusThen(ctx context.Context, b Backend, t StepTarget, focusAttr string, inputs ...Input) error {
	if !focusedBy(ctx, b, t.Ref, focusAttr) {
		n, err := ReadOne(ctx, b, t.Ref)
		if err != nil {
			return err
		}
		if n.Bounds == nil || n.Bounds.Empty() || n.Offscreen {
			return model.Errorf(model.CodeNotSupported, "Scroll the element into view first.", "the element has no bounds on screen to click")
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
}

// focusedBy sets the element's focus attribute and reports whether it then is focused.
func focusedBy(ctx context.Context, b Backend, ref model.NodeRef, attr string) bool {
	if b.SetAttribute(ctx, ref, attr, true) != nil {
		return false
	}
	n, err := ReadOne(ctx, b, ref)
	return err == nil && n.States.Has(model.StateFocused)
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
				return model.Errorf(model.CodeNotSupported, "Type into a password field with physical input.",
					"a password field's text is never read, so it cannot be appended to")
			case !n.HasValue:
				return model.Errorf(model.CodeNotSupported, "Type into a text field.", "the element has no text value")
			}
			return b.SetAttribute(ctx, t.Ref, attr, n.Value+t.Value)
		},
	}
}

// VisibleInScrollContext succeeds when the element is in view: its centre inside the nearest
// ancestor that isViewport says is a scroll view, else inside its outermost ancestor with bounds
// (the window). It moves nothing and sends no input: it takes an element already in view, or one
// an earlier step scrolled although it reported an error, for scrolled.
func VisibleInScrollContext(isViewport func(model.Node) bool) Step {
	return Step{
		Kind: StepCustom, Label: "visible in scroll context",
		Run: func(ctx context.Context, b Backend, t StepTarget) error {
			return inView(ctx, b, t.Ref, isViewport)
		},
	}
}

// maxScrollDepth bounds the walk up to the element's scroll view.
const maxScrollDepth = 32

func inView(ctx context.Context, b Backend, ref model.NodeRef, isViewport func(model.Node) bool) error {
	n, err := ReadOne(ctx, b, ref)
	if err != nil {
		return err
	}
	if n.Offscreen || n.Bounds == nil || n.Bounds.Empty() {
		return notInView("the element reports no bounds on screen")
	}
	x, y := n.Bounds.Center()
	var view *model.Rect
	for p, depth := n.Parent, 0; p != "" && depth < maxScrollDepth; depth++ {
		a, err := ReadOne(ctx, b, p)
		if err != nil {
			return err
		}
		if a.Role == model.RoleApplication {
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
	return model.Errorf(model.CodeActionFailed, "Scroll its container (physical scroll input) and try again.", "the element is not in view: %s", why)
}

// ReadOne reads one element, its read error as the error.
func ReadOne(ctx context.Context, b Backend, ref model.NodeRef) (model.Node, error) {
	nodes := b.Read(ctx, []model.NodeRef{ref})
	if len(nodes) != 1 {
		return model.Node{}, model.Errorf(model.CodeInternal, "Retry.", "read of one element returned %d", len(nodes))
	}
	return nodes[0], nodes[0].Err
}
