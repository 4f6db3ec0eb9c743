package ax

import (
	"context"

	"github.com/axbus/axbus/model"
)

// Windows lists app pid's windows (AXWindows) and, after each, the sheets among its children: a
// sheet is both its own entry and part of its window's tree, as on the simulated desktop.
// Focused is the app's AXFocusedWindow. The children's roles are read once per element, so a
// repeated listing costs a round trip per window plus two for the app.
func (b *Backend) Windows(ctx context.Context, pid int) ([]model.Window, error) {
	if err := b.checkOpen(); err != nil {
		return nil, err
	}
	app, err := b.appRef(pid)
	if err != nil {
		return nil, err
	}
	ax, _, err := b.refs.acquire(app)
	if err != nil {
		return nil, err
	}
	defer release(ax)
	list, code := b.refs.copyValue(ax, "AXWindows")
	switch code {
	case AXSuccess:
	case AXNoValue:
		return nil, nil
	default:
		return nil, b.callErr(code, pid, app, "listing the windows of pid %d", pid)
	}
	focused, _ := b.refs.copyElement(ax, "AXFocusedWindow") // none focused: no window is marked
	var out []model.Window
	for _, w := range refsOf(list) {
		if ctx.Err() != nil {
			return nil, errEnded(ctx, "listing the windows")
		}
		win, children, ok := b.window(w, w == focused)
		if !ok {
			continue
		}
		out = append(out, win)
		for _, c := range children {
			if role, _, err := b.roleOf(c); err == nil && role == "AXSheet" {
				if sheet, _, ok := b.window(c, false); ok {
					out = append(out, sheet)
				}
			}
		}
	}
	return out, nil
}

// windowAttributes are WindowAttributes and AXMinimized, read in the same round trip: a
// minimized window is listed, marked so, and raising it restores it.
var windowAttributes = append(WindowAttributes[:len(WindowAttributes):len(WindowAttributes)], "AXMinimized")

// window reads one window or sheet and lists its children; false when it is gone.
func (b *Backend) window(ref model.NodeRef, focused bool) (model.Window, []model.NodeRef, bool) {
	ax, _, err := b.refs.acquire(ref)
	if err != nil {
		return model.Window{}, nil, false
	}
	defer release(ax)
	vals, code := b.refs.copyValues(ax, windowAttributes)
	if code != AXSuccess {
		return model.Window{}, nil, false
	}
	if role := stringOf(vals["AXRole"]); role != "" {
		b.refs.setRole(ref, role, stringOf(vals["AXSubrole"]))
	}
	win := WindowOf(windowID(ref), ref, vals, focused)
	win.Minimized = flag(vals, "AXMinimized")
	return win, refsOf(vals["AXChildren"]), true
}
