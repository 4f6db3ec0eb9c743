package sim

import (
	"context"
	"math"

	"github.com/axbus/axbus/model"
)

// Perform performs an AX action on an element: the built-in behaviour (AXPress toggles a
// checkbox, AXIncrement moves a slider, AXScrollToVisible scrolls, AXRaise raises a window)
// and then the app's reactions to it. An action the element does not list is NOT_SUPPORTED.
func (d *Desktop) Perform(ctx context.Context, ref model.NodeRef, action string) error {
	a, n, err := d.enter(ctx, ref, action)
	if err != nil {
		return err
	}
	defer d.mu.Unlock()
	if !n.canDo(action) {
		return errActionUnsupported(a, n, action)
	}
	return d.misbehave(a, n, action, func() {
		d.act(a, n, action)
		d.react(a, n, Trigger{Action: action})
	})
}

// SetAttribute sets an AX attribute: AXValue (text, or a number for a slider, kept within its
// range), AXFocused, AXSelected, AXExpanded or AXDisclosing (booleans), or a table's or outline's
// AXSelectedRows (a list's AXSelectedChildren): the handles of the children to select, as
// []model.NodeRef or one model.NodeRef. An attribute the element cannot set is
// NOT_SUPPORTED.
func (d *Desktop) SetAttribute(ctx context.Context, ref model.NodeRef, attr string, value any) error {
	a, n, err := d.enter(ctx, ref, attr)
	if err != nil {
		return err
	}
	defer d.mu.Unlock()
	if !n.canSet(attr) {
		return errNotSettable(a, n, attr)
	}
	set, err := setter(a, n, attr, value)
	if err != nil {
		return err
	}
	return d.misbehave(a, n, attr, func() {
		set(d, a)
		d.react(a, n, Trigger{Set: attr})
	})
}

// enter makes the round trip of a call on ref and returns its element with d.mu held, or an
// error without it: the app gone, not answering, or failing transiently.
func (d *Desktop) enter(ctx context.Context, ref model.NodeRef, action string) (*app, *node, error) {
	pid, _, _, err := parseRef(ref)
	if err != nil {
		return nil, nil, err
	}
	if err := d.callApp(ctx, pid); err != nil {
		return nil, nil, err
	}
	d.mu.Lock()
	a, n, err := d.resolve(ref)
	if err == nil && a.take(FaultTransient, n.id, action) != nil {
		err = errTransient(a, n.id)
	}
	if err != nil {
		d.mu.Unlock()
		return nil, nil, err
	}
	return a, n, nil
}

// misbehave runs do unless a no-op fault swallows it, and reports what a lying fault says.
func (d *Desktop) misbehave(a *app, n *node, action string, do func()) error {
	if !n.enabled {
		return errDisabled(a, n)
	}
	if a.take(FaultNoop, n.id, action) != nil {
		return nil
	}
	lie := a.take(FaultLying, n.id, action)
	do()
	if lie != nil {
		return errLying(a, n.id, action, lie.Code)
	}
	return nil
}

// act is the built-in behaviour of an action.
func (d *Desktop) act(a *app, n *node, action string) {
	switch action {
	case "AXPress":
		d.press(a, n)
	case "AXIncrement":
		d.step(a, n, 1)
	case "AXDecrement":
		d.step(a, n, -1)
	case "AXScrollToVisible":
		d.scrollToVisible(a, n)
	case "AXRaise":
		d.raise(a, n)
	case "AXExpand", "AXCollapse":
		if n.expanded != nil {
			d.setExpanded(a, n, action == "AXExpand")
		}
	}
}

// press toggles a checkbox or switch and turns a radio button on (its siblings off).
func (d *Desktop) press(a *app, n *node) {
	switch n.role {
	case "AXCheckBox":
		v := "1"
		if n.value == "1" {
			v = "0"
		}
		d.setValue(a, n, v)
	case "AXRadioButton":
		if n.value == "1" {
			return
		}
		for _, s := range n.parent.children {
			if s != n && s.role == "AXRadioButton" && s.value == "1" {
				d.setValue(a, s, "0")
			}
		}
		d.setValue(a, n, "1")
	}
}

// setter checks value for attr and returns the change that sets it.
func setter(a *app, n *node, attr string, value any) (func(*Desktop, *app), error) {
	switch attr {
	case "AXSelectedRows", "AXSelectedChildren":
		children, ok := selectedChildren(a, n, attr, value)
		if !ok {
			return nil, errBadValue(n, attr, value)
		}
		return func(d *Desktop, a *app) { d.selectOnly(a, n, children) }, nil
	case "AXValue":
		v, ok := valueText(n, value)
		if !ok {
			return nil, errBadValue(n, attr, value)
		}
		return func(d *Desktop, a *app) { d.setValue(a, n, v) }, nil
	}
	on, ok := value.(bool)
	if !ok {
		return nil, errBadValue(n, attr, value)
	}
	switch attr {
	case "AXFocused":
		return func(d *Desktop, a *app) {
			if on {
				d.focus(a, n)
			} else if a.focus == n {
				a.focus = nil
			}
		}, nil
	case "AXSelected":
		return func(d *Desktop, a *app) { d.setSelected(a, n, on) }, nil
	default: // AXExpanded, AXDisclosing: validation admits no other settable attribute
		return func(d *Desktop, a *app) { d.setExpanded(a, n, on) }, nil
	}
}

// valueText is value as n's AXValue: text for text fields, a number within range for sliders.
func valueText(n *node, value any) (string, bool) {
	if !isAdjustable(n.role) {
		switch v := value.(type) {
		case string:
			return v, true
		case float64:
			return formatNumber(v), true
		}
		return "", false
	}
	var f float64
	switch v := value.(type) {
	case float64:
		f = v
	case string:
		var err error
		if f, err = model.ParseNumber(v); err != nil {
			return "", false
		}
	default:
		return "", false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	return formatNumber(clamp(f, valueOr(n.min, 0), valueOr(n.max, 100))), true
}

// selectedChildren resolves the handles an AXSelectedRows or AXSelectedChildren value names:
// children of n in a's running instance, rows for AXSelectedRows.
func selectedChildren(a *app, n *node, attr string, value any) ([]*node, bool) {
	var refs []model.NodeRef
	switch v := value.(type) {
	case []model.NodeRef:
		refs = v
	case model.NodeRef:
		refs = []model.NodeRef{v}
	default:
		return nil, false
	}
	out := make([]*node, 0, len(refs))
	for _, r := range refs {
		pid, launch, id, err := parseRef(r)
		if err != nil || pid != a.pid || launch != a.launch {
			return nil, false
		}
		c := a.byID[id]
		if c == nil || c.parent != n || (attr == "AXSelectedRows" && c.role != "AXRow") {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}
