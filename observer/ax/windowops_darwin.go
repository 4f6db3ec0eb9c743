package ax

import (
	"context"
	"unsafe"

	"github.com/axbus/axbus/model"
)

// Changing windows through AX, with the accessibility permission alone: a window's AXPosition
// and AXSize (AXValues of a CGPoint and a CGSize, global points from the top-left), its
// AXMinimized, the AXPress of its AXCloseButton, and AXRaise. The window server and the app
// decide: a full-screen window does not move, a fixed-size one keeps its size, an app may ask to
// save before closing; the caller reads the windows again to see what happened.

// ChangeWindow moves, resizes, closes, raises or minimizes app pid's window win. Raising also
// restores it when minimized and brings its app to the front (front.go: activation, then
// AXFrontmost), so that it has the input focus.
func (b *Backend) ChangeWindow(ctx context.Context, pid int, win model.Window, ch model.WindowChange) error {
	if err := b.checkOpen(); err != nil {
		return err
	}
	if err := ch.Check(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return errEnded(ctx, "the window "+string(ch.Op))
	}
	ref, err := b.windowElement(ctx, pid, win)
	if err != nil {
		return err
	}
	ax, _, err := b.refs.acquire(ref)
	if err != nil {
		return err
	}
	defer release(ax)
	what := func(attr string) string { return string(ch.Op) + " of window " + windowID(ref) + " (" + attr + ")" }
	switch ch.Op {
	case model.WindowMove:
		return b.callErr(setAXValue(ax, "AXPosition", AXValueCGPoint, unsafe.Pointer(&cgPoint{ch.X, ch.Y})), pid, ref, "%s", what("AXPosition"))
	case model.WindowResize:
		return b.callErr(setAXValue(ax, "AXSize", AXValueCGSize, unsafe.Pointer(&cgSize{ch.W, ch.H})), pid, ref, "%s", what("AXSize"))
	case model.WindowMinimize:
		return b.callErr(setBool(ax, "AXMinimized", true), pid, ref, "%s", what("AXMinimized"))
	case model.WindowClose:
		return b.closeWindow(ax, pid, ref)
	default: // observer.WindowRaise, as Check leaves no other op
		return b.raiseWindow(ctx, ax, pid, ref)
	}
}

// windowElement is the handle of win among app pid's windows: its own while the table holds it
// (windows are never evicted), else the one MatchWindow picks from a new listing.
func (b *Backend) windowElement(ctx context.Context, pid int, win model.Window) (model.NodeRef, error) {
	if p, _, ok := parseRef(win.Ref); ok && p == pid {
		if _, known := b.refs.info(win.Ref); known {
			return win.Ref, nil
		}
	}
	wins, err := b.Windows(ctx, pid)
	if err != nil {
		return "", err
	}
	if w, ok := MatchWindow(wins, win); ok {
		return w.Ref, nil
	}
	return "", model.Errorf(model.CodeWindowNotFound, "List the app's windows again (axbus windows) and name one by its id.",
		"app pid %d has no window %q (%s)", pid, win.Title, win.ID).With("pid", pid)
}

// closeWindow presses the window's close button, as a user does; a window without one (a sheet,
// a panel) is NOT_SUPPORTED.
func (b *Backend) closeWindow(ax uintptr, pid int, ref model.NodeRef) error {
	button, code := b.refs.copyElement(ax, "AXCloseButton")
	switch code {
	case AXSuccess:
	case AXNoValue, AXAttributeUnsupported:
		return model.Errorf(model.CodeNotSupported,
			"The window has no close button: press its Cancel or Close button, or send cmd+w as input.",
			"window %s has no AXCloseButton", windowID(ref)).With("pid", pid)
	default:
		return b.callErr(code, pid, ref, "reading the close button of window %s", windowID(ref))
	}
	bax, _, err := b.refs.acquire(button)
	if err != nil {
		return err
	}
	defer release(bax)
	return b.callErr(axUIElementPerformAction(bax, name("AXPress")), pid, button, "pressing the close button of window %s", windowID(ref))
}

// raiseWindow restores the window when minimized, raises it above the app's other windows
// (AXRaise, which makes it the app's main window) and brings the app to the front.
//
// A window just restored may still be on its way out of the Dock: its AXRaise failing then is
// no failure of the raise (restoring brings it forward too), which the caller's re-read proves.
func (b *Backend) raiseWindow(ctx context.Context, ax uintptr, pid int, ref model.NodeRef) error {
	restored := false
	if b.boolAttr(ax, "AXMinimized") {
		if err := b.callErr(setBool(ax, "AXMinimized", false), pid, ref, "restoring window %s (AXMinimized)", windowID(ref)); err != nil {
			return err
		}
		restored = true
	}
	err := b.callErr(axUIElementPerformAction(ax, name("AXRaise")), pid, ref, "raising window %s (AXRaise)", windowID(ref))
	switch model.CodeOf(err) {
	case "":
	case model.CodeAppGone, model.CodeStaleRef:
		return err
	default:
		if !restored {
			return err
		}
	}
	return b.raiser().raise(ctx, pid)
}

// setAXValue sets attr to an AXValue of typ made from the C struct at value (a cgPoint for
// AXValueCGPoint, a cgSize for AXValueCGSize); AXValueCreate copies it.
func setAXValue(ax uintptr, attr string, typ AXValueType, value unsafe.Pointer) AXError {
	v := axValueCreate(typ, value)
	if v == 0 {
		return AXIllegalArgument
	}
	defer release(v)
	return axUIElementSetAttributeValue(ax, name(attr), v)
}
