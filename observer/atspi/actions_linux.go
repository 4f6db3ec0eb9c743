//go:build linux

package atspi

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"
)

// pressActions are the names toolkits give the one action that presses an element; a request for
// any of them is served by whichever the element offers. Chromium names the action after what it
// does: "press" (button), "jump" (link), "check"/"uncheck" (check box, radio), "open" (select),
// "select" (option), "activate" (text field), "doDefault" (anything clickable).
var pressActions = []string{"click", "press", "activate", "toggle", "check", "uncheck", "jump", "open", "select", "dodefault"}

// Perform invokes the element's action called action (case-insensitive), or the action at that
// index ("0" is the default action) when no action has that name. A press-like name ("click",
// "press", "activate", "toggle") falls back to the press-like action the element has. An absent
// action is NOT_SUPPORTED, listing the element's actions.
func (b *Backend) Perform(ctx context.Context, ref model.NodeRef, action string) error {
	b.acting()
	defer b.acting()
	bus, path, err := b.target(ref)
	if err != nil {
		return err
	}
	names, err := b.actionsOf(ctx, ref)
	if err != nil {
		return err
	}
	idx := matchAction(names, action)
	if idx < 0 {
		return model.Errorf(model.CodeNotSupported,
			"Use one of the element's actions, set an attribute, or use physical input (a click at its centre).",
			"the element has no action %q; it offers [%s]", action, strings.Join(names, ", ")).
			With("actions", names).With("ref", string(ref))
	}
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	var ok bool
	if err := b.conn.Object(bus, dbus.ObjectPath(path)).CallWithContext(cctx, actionDoAction, 0, int32(idx)).Store(&ok); err != nil {
		return b.callError(ctx, bus, path, actionDoAction, err)
	}
	if !ok {
		return model.Errorf(model.CodeActionFailed, "The app refused the action; check that the element is enabled and visible.",
			"%s refused action %q", b.appLabel(bus), names[idx])
	}
	return b.settle(ctx, ref, names[idx])
}

// settle returns once the app has applied an action it answered: a reply must mean the app has
// the action, and the next action of a client must not overtake it. Toolkits that press a
// button as a keyboard would apply the click after a timer (activationDelay), which is waited
// out; then one round trip to the app, which it answers only once its main loop has run what
// was queued before (the timer's click, a posted event).
func (b *Backend) settle(ctx context.Context, ref model.NodeRef, action string) error {
	bus, path, _ := ParseRef(ref)
	app := b.app(bus)
	ri, _ := b.cache.get(ref)
	if app != nil && ri.haveRole {
		if d := activationDelay(toolkitTraitsOf(app.toolkit, app.version), ri.role, action); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return model.AsError(ctx.Err())
			}
		}
	}
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	if err := b.conn.Object(bus, dbus.ObjectPath(path)).CallWithContext(cctx, accessibleGetState, 0).Err; err != nil {
		if e := b.callError(ctx, bus, path, accessibleGetState, err); e.Code != model.CodeElementNotFound {
			return e // gone is an effect (a dialog's OK closes it); not answering is not
		}
	}
	return nil
}

// matchAction finds the action called name (case-insensitive), else the action at index name,
// else for a press-like name the element's press-like action; -1 when there is none.
func matchAction(names []string, name string) int {
	for i, n := range names {
		if strings.EqualFold(n, name) {
			return i
		}
	}
	if i, err := strconv.Atoi(name); err == nil && i >= 0 && i < len(names) && strconv.Itoa(i) == name {
		return i
	}
	isPress := func(s string) bool {
		for _, p := range pressActions {
			if strings.EqualFold(p, s) {
				return true
			}
		}
		return false
	}
	if !isPress(name) {
		return -1
	}
	for _, p := range pressActions {
		for i, n := range names {
			if strings.EqualFold(n, p) {
				return i
			}
		}
	}
	return -1
}

// actionsOf returns the element's action names (cached per element: they do not change).
func (b *Backend) actionsOf(ctx context.Context, ref model.NodeRef) ([]string, error) {
	if ri, ok := b.cache.get(ref); ok && ri.haveActions {
		return ri.actions, nil
	}
	bus, path, _ := ParseRef(ref)
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	obj := b.conn.Object(bus, dbus.ObjectPath(path))
	var count int32
	if err := obj.CallWithContext(cctx, propsGet, 0, ifaceAction, "NActions").Store(&count); err != nil {
		if e := b.callError(ctx, bus, path, actionNActionsProp, err); fatal(e) {
			return nil, e
		}
		return nil, nil // no Action interface: no actions
	}
	names := make([]string, min(max(count, 0), maxActions))
	for i := range names {
		_ = obj.CallWithContext(cctx, actionGetName, 0, int32(i)).Store(&names[i])
	}
	b.keepActions(ref, names)
	return names, nil
}

// target checks a handle and that the backend is open.
func (b *Backend) target(ref model.NodeRef) (bus, path string, err error) {
	if b.isClosed() {
		return "", "", errClosed()
	}
	bus, path, ok := ParseRef(ref)
	if !ok {
		return "", "", errNotOurs(ref)
	}
	return bus, path, nil
}

// The attributes SetAttribute knows.
var settableAttrs = []string{"text", "value", "focus", "selected", "scroll_to"}

// scrollTypes are AtspiScrollType (at-spi2-core 2.46): where Component.ScrollTo puts the element.
var scrollTypes = map[string]uint32{
	"top_left": 0, "bottom_right": 1, "top_edge": 2, "bottom_edge": 3, "left_edge": 4, "right_edge": 5, "anywhere": 6,
}

// SetAttribute sets an attribute of the element: "text" (EditableText.SetTextContents; allowed on
// password fields, whose text is never logged), "value" (Value.CurrentValue), "focus"
// (Component.GrabFocus), "selected" (the parent's Selection.SelectChild / DeselectChild) or
// "scroll_to" (Component.ScrollTo: true scrolls the element into view anywhere, a scroll type
// name such as "top_edge" puts it there).
func (b *Backend) SetAttribute(ctx context.Context, ref model.NodeRef, attr string, value any) error {
	b.acting()
	defer b.acting()
	bus, path, err := b.target(ref)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	obj := b.conn.Object(bus, dbus.ObjectPath(path))
	switch strings.ToLower(attr) {
	case "text":
		s, ok := value.(string)
		if !ok {
			return badValue(attr, "a string", value)
		}
		if ri, ok := b.cache.get(ref); ok && ri.haveIfaces && !ri.ifaces.has(ifEditableText) {
			return model.Errorf(model.CodeNotSupported,
				"Type into it with physical input (--policy physical): axbus focuses the field through accessibility and types.",
				"%s offers no way to set this field's text through accessibility (no EditableText interface, as in Chromium and Electron)",
				b.appLabel(bus))
		}
		var done bool
		if err := obj.CallWithContext(cctx, editableSetTextContents, 0, s).Store(&done); err != nil {
			return b.notSupportedAs(b.callError(ctx, bus, path, editableSetTextContents, err), attr)
		}
		if !done {
			return model.Errorf(model.CodeActionFailed, "The field may be read-only or disabled; check its states.",
				"%s refused to set the text", b.appLabel(bus))
		}
		return nil
	case "value":
		f, ok := toFloat(value)
		if !ok {
			return badValue(attr, "a number", value)
		}
		c := obj.CallWithContext(cctx, propsSet, 0, ifaceValue, "CurrentValue", dbus.MakeVariant(f))
		if c.Err != nil {
			return b.notSupportedAs(b.callError(ctx, bus, path, valueCurrentValueProp, c.Err), attr)
		}
		return nil
	case "focus", "focused":
		if on, ok := value.(bool); ok && !on {
			return model.Errorf(model.CodeNotSupported, "Focus another element instead.", "AT-SPI cannot take the focus away from an element")
		}
		var done bool
		if err := obj.CallWithContext(cctx, componentGrabFocus, 0).Store(&done); err != nil {
			return b.notSupportedAs(b.callError(ctx, bus, path, componentGrabFocus, err), attr)
		}
		if !done {
			return model.Errorf(model.CodeActionFailed, "Click the element instead (physical input).",
				"%s refused to focus the element", b.appLabel(bus))
		}
		return nil
	case "selected":
		on := true
		if v, ok := value.(bool); ok {
			on = v
		}
		return b.selectInParent(cctx, ctx, bus, path, on)
	case "scroll_to":
		where := scrollTypes["anywhere"]
		switch v := value.(type) {
		case bool:
			if !v {
				return badValue(attr, "true or a scroll type (anywhere, top_edge, ...)", value)
			}
		case string:
			t, ok := scrollTypes[strings.ToLower(v)]
			if !ok {
				return badValue(attr, "true or a scroll type (anywhere, top_edge, ...)", value)
			}
			where = t
		default:
			return badValue(attr, "true or a scroll type (anywhere, top_edge, ...)", value)
		}
		var done bool
		if err := obj.CallWithContext(cctx, componentScrollTo, 0, where).Store(&done); err != nil {
			return b.notSupportedAs(b.callError(ctx, bus, path, componentScrollTo, err), attr)
		}
		if !done {
			return model.Errorf(model.CodeNotSupported, "Scroll the element's container instead (physical input).",
				"%s cannot scroll the element into view", b.appLabel(bus))
		}
		return nil
	}
	return model.Errorf(model.CodeNotSupported, "Set one of: "+strings.Join(settableAttrs, ", ")+".",
		"unknown attribute %q", attr).With("settable", settableAttrs)
}

// selectInParent selects (or deselects) the element through its parent's Selection interface.
func (b *Backend) selectInParent(cctx, ctx context.Context, bus, path string, on bool) error {
	obj := b.conn.Object(bus, dbus.ObjectPath(path))
	var idx int32
	if err := obj.CallWithContext(cctx, accessibleGetIndexInParent, 0).Store(&idx); err != nil {
		return b.callError(ctx, bus, path, accessibleGetIndexInParent, err)
	}
	var pv dbus.Variant
	if err := obj.CallWithContext(cctx, propsGet, 0, ifaceAccessible, "Parent").Store(&pv); err != nil {
		return b.callError(ctx, bus, path, accessibleParentProp, err)
	}
	parent := variantRef(pv)
	pbus, ppath, ok := ParseRef(parent)
	if !ok || idx < 0 {
		return model.Errorf(model.CodeNotSupported, "Click the element instead.", "the element has no parent to select it in")
	}
	method := ".SelectChild"
	if !on {
		method = ".DeselectChild"
	}
	var done bool
	if err := b.conn.Object(pbus, dbus.ObjectPath(ppath)).CallWithContext(cctx, ifaceSelection+method, 0, idx).Store(&done); err != nil {
		return b.notSupportedAs(b.callError(ctx, pbus, ppath, ifaceSelection+method, err), "selected")
	}
	if !done {
		return model.Errorf(model.CodeActionFailed, "Click the element instead.", "%s refused to change the selection", b.appLabel(bus))
	}
	return nil
}

// notSupportedAs rewrites a NOT_SUPPORTED error into one that names the attribute.
func (b *Backend) notSupportedAs(e *model.Error, attr string) error {
	if e.Code != model.CodeNotSupported {
		return e
	}
	return model.Errorf(model.CodeNotSupported, "Use another attribute, an action, or physical input.",
		"the element cannot set %q (%s)", attr, e.Message).Wrap(e)
}

func badValue(attr, want string, value any) error {
	return model.Errorf(model.CodeBadRequest, fmt.Sprintf("Give %s as %s.", attr, want),
		"%s must be %s, not %T", attr, want, value)
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case float32:
		return float64(x), !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case string:
		f, err := model.ParseNumber(x)
		return f, err == nil
	}
	return 0, false
}
