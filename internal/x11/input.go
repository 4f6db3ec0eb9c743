package x11

import (
	"context"

	"github.com/axbus/axbus/model"

	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// Input synthesised through XTEST. Without a window manager the app's window is raised and given
// the input focus first, as xdotool's windowfocus does.

// inputFailed is the error of a failed X request.
func inputFailed(what string, err error) *model.Error {
	return model.Errorf(model.CodeActionFailed, "Check that the X server is alive; retry.", "%s: %v", what, err).Wrap(err)
}

// Click moves the pointer to (px, py) and clicks button count times, after raising and focusing
// pid's window under the point. With no pid (0) the top-level window under the pointer is
// focused, as a click-to-focus window manager would, when none runs.
func (x *Conn) Click(pid int, px, py int16, button byte, count int) error {
	if pid > 0 {
		if win, ok := x.windowAt(pid, int(px), int(py)); ok {
			x.Activate(win)
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := xtest.FakeInputChecked(x.c, xproto.MotionNotify, 0, 0, x.root, px, py, 0).Check(); err != nil {
		return inputFailed("moving the pointer", err)
	}
	if pid <= 0 && !x.hasWMLocked() {
		if p, err := xproto.QueryPointer(x.c, x.root).Reply(); err == nil && p.Child != 0 {
			xproto.SetInputFocus(x.c, xproto.InputFocusParent, p.Child, xproto.TimeCurrentTime)
		}
	}
	for i := 0; i < count; i++ {
		if err := xtest.FakeInputChecked(x.c, xproto.ButtonPress, button, 0, x.root, 0, 0, 0).Check(); err != nil {
			return inputFailed("pressing the button", err)
		}
		if err := xtest.FakeInputChecked(x.c, xproto.ButtonRelease, button, 0, x.root, 0, 0, 0).Check(); err != nil {
			return inputFailed("releasing the button", err)
		}
	}
	x.sync()
	return nil
}

// Keystroke is a key (a keysym) pressed and released with modifiers (keysyms) held.
type Keystroke struct {
	Mods []uint32
	Key  uint32
}

// Tap gives pid's window the focus and presses strokes in order: modifiers down, key down and
// up, modifiers up (and shift for a keysym at the shift level). Keysyms the keyboard map lacks
// are bound to spare keycodes first, and given back a moment after the last key. Typing text is
// tapping each of its characters' keysyms.
func (x *Conn) Tap(ctx context.Context, pid int, strokes []Keystroke) error {
	x.focusApp(pid)
	x.mu.Lock()
	defer x.mu.Unlock()
	kb, err := x.keyboardLocked()
	if err != nil {
		return inputFailed("reading the keyboard map", err)
	}
	var syms []uint32
	for _, s := range strokes {
		syms = append(syms, s.Mods...)
		syms = append(syms, s.Key)
	}
	if err := kb.bind(x, syms); err != nil {
		return err
	}
	for _, s := range strokes {
		if err := ctx.Err(); err != nil {
			return model.AsError(err)
		}
		if err := kb.tap(x, s.Key, s.Mods); err != nil {
			return err
		}
	}
	x.sync()
	kb.scheduleRestore(x)
	return nil
}
