package sim

import (
	"context"
	"slices"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// Input simulates physical input to app in.PID and records it (see Inputs). A click hits the
// deepest visible element at the point in the topmost window there, presses the nearest
// pressable element from it upwards (or selects the nearest selectable one) and focuses the
// nearest focusable one; typing appends to the focused text element's value; keys are only
// recorded, except that cmd+a selects all of the focused text element's text (typing then replaces
// it, backspace or delete clears it) and any other key ends that selection. Physical input bypasses AX, so AX faults do not apply, but an exited app is gone.
func (d *Desktop) Input(ctx context.Context, in observer.Input) error {
	if err := ctxErr(ctx); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.inputs = append(d.inputs, in)
	a, err := d.live(in.PID)
	if err != nil {
		return err
	}
	switch in.Kind {
	case observer.InputClick:
		if n := a.hitTest(in.X, in.Y); n != nil {
			for range max(in.Count, 1) {
				d.click(a, n)
			}
		}
	case observer.InputType:
		if f := a.focus; f != nil && isTextEntry(f.role) && f.canSet("AXValue") && f.enabled {
			v := f.value + in.Text
			if a.allSelected == f {
				v = in.Text // typing replaces the selected text
			}
			d.setValue(a, f, v)
		}
	case observer.InputKey:
		d.keys(a, in.Keys)
	default:
		return observer.ErrInputKind(in.Kind)
	}
	return nil
}

// Inputs returns the physical input received so far, in order, so a test can tell whether a
// command fell back to it.
func (d *Desktop) Inputs() []observer.Input {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.inputs)
}

func (d *Desktop) click(a *app, n *node) {
	a.allSelected = nil // a click places the caret
	if p := n.ancestorOrSelf(func(c *node) bool { return c.canDo("AXPress") }); p != nil && p.enabled {
		d.act(a, p, "AXPress")
		d.react(a, p, Trigger{Action: "AXPress"})
	} else if s := n.ancestorOrSelf(func(c *node) bool { return c.canSet("AXSelected") }); s != nil {
		d.setSelected(a, s, true)
	}
	if f := n.ancestorOrSelf(func(c *node) bool { return c.canSet("AXFocused") }); f != nil && f.enabled {
		d.focus(a, f)
	}
}

// hitTest is the deepest element at (x, y), searching windows from the top.
func (a *app) hitTest(x, y float64) *node {
	for i := len(a.windows) - 1; i >= 0; i-- {
		if a.windows[i].hidden {
			continue
		}
		if n := hit(a.windows[i], x, y); n != nil {
			return n
		}
	}
	return nil
}

// hit is the deepest element under n at (x, y), later siblings first (they are drawn on top).
// A point outside a frame hits nothing inside it, so what a scroll area clips cannot be hit; a
// node without a frame is transparent: only its children can be hit.
func hit(n *node, x, y float64) *node {
	if n.frame != nil && !contains(*n.frame, x, y) {
		return nil
	}
	for i := len(n.children) - 1; i >= 0; i-- {
		if h := hit(n.children[i], x, y); h != nil {
			return h
		}
	}
	if n.frame == nil {
		return nil
	}
	return n
}

func contains(r model.Rect, x, y float64) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// keys applies a key sequence ("cmd+a BackSpace"): only select-all and deleting what it selected
// change anything.
func (d *Desktop) keys(a *app, keys string) {
	for _, k := range strings.Fields(strings.ToLower(keys)) {
		f := a.focus
		switch {
		case k == "cmd+a" && f != nil && isTextEntry(f.role):
			a.allSelected = f
		case (k == "backspace" || k == "delete") && f != nil && a.allSelected == f && f.canSet("AXValue") && f.enabled:
			d.setValue(a, f, "")
		default:
			a.allSelected = nil
		}
	}
}
