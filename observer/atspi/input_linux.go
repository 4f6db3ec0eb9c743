//go:build linux

package atspi

import (
	"context"
	"math"
	"time"

	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"github.com/axbus/axbus/observer"
)

// Timing of physical input.
const (
	// restoreDelay is how long keycodes bound for typing stay bound after the last key: the app
	// translates a key when it reads it, after the keymap change, so restoring at once could
	// turn late keys into nothing.
	restoreDelay = 500 * time.Millisecond
	// focusSettle lets the app see its new input focus before keys arrive.
	focusSettle = 20 * time.Millisecond
)

// Input synthesises physical input through XTEST: a pointer click at (X, Y), typing, or key
// combinations. Without a window manager the app's window is raised and given the input focus
// first, as xdotool's windowfocus does. The text typed is never logged.
func (b *Backend) Input(ctx context.Context, in observer.Input) error {
	b.acting()
	defer b.acting()
	x, err := b.xconn()
	if err != nil {
		return err
	}
	if !x.xtest {
		return observer.Errorf(observer.CodeUnavailable, "Use an X server with the XTEST extension (Xorg and Xvfb have it).",
			"physical input is unavailable: %v", errNoXTest)
	}
	if err := ctx.Err(); err != nil {
		return observer.AsError(err)
	}
	switch in.Kind {
	case observer.InputClick:
		return b.click(x, in)
	case observer.InputType:
		return b.typeText(ctx, x, in)
	case observer.InputKey:
		combos, err := ParseKeys(in.Keys)
		if err != nil {
			return observer.Errorf(observer.CodeBadRequest, `Give keys like "ctrl+a", "Return", "shift+Tab" or "ctrl+shift+s".`,
				"bad key sequence: %v", err)
		}
		return b.pressKeys(ctx, x, in.PID, combos)
	}
	return observer.Errorf(observer.CodeBadRequest, "Use one of: click, type, key.", "unknown input kind %q", in.Kind)
}

// fail is the error of a failed X request.
func inputFailed(what string, err error) *observer.Error {
	return observer.Errorf(observer.CodeActionFailed, "Check that the X server is alive; retry.", "%s: %v", what, err).Wrap(err)
}

// click moves the pointer to (X, Y) and clicks Button Count times, after raising and focusing the
// app's window under the point.
func (b *Backend) click(x *xConn, in observer.Input) error {
	if math.IsNaN(in.X) || math.IsNaN(in.Y) || in.X < -32768 || in.X > 32767 || in.Y < -32768 || in.Y > 32767 {
		return observer.Errorf(observer.CodeBadRequest, "Give a point on the screen.", "point (%v, %v) is off any screen", in.X, in.Y)
	}
	button := in.Button
	if button == 0 {
		button = 1
	}
	if button < 1 || button > 9 {
		return observer.ErrButton(in.Button)
	}
	count := max(in.Count, 1)
	px, py := int16(math.Round(in.X)), int16(math.Round(in.Y))
	if in.PID > 0 {
		if win, ok := x.windowAt(in.PID, int(px), int(py)); ok {
			x.activate(win)
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := xtest.FakeInputChecked(x.c, xproto.MotionNotify, 0, 0, x.root, px, py, 0).Check(); err != nil {
		return inputFailed("moving the pointer", err)
	}
	if in.PID <= 0 && !x.hasWMLocked() {
		// No app named: focus the top-level window under the pointer, as a click-to-focus
		// window manager would.
		if p, err := xproto.QueryPointer(x.c, x.root).Reply(); err == nil && p.Child != 0 {
			xproto.SetInputFocus(x.c, xproto.InputFocusParent, p.Child, xproto.TimeCurrentTime)
		}
	}
	for i := 0; i < count; i++ {
		if err := xtest.FakeInputChecked(x.c, xproto.ButtonPress, byte(button), 0, x.root, 0, 0, 0).Check(); err != nil {
			return inputFailed("pressing the button", err)
		}
		if err := xtest.FakeInputChecked(x.c, xproto.ButtonRelease, byte(button), 0, x.root, 0, 0, 0).Check(); err != nil {
			return inputFailed("releasing the button", err)
		}
	}
	x.sync()
	return nil
}

// typeText types in.Text into the app's focused window.
func (b *Backend) typeText(ctx context.Context, x *xConn, in observer.Input) error {
	if in.Text == "" {
		return nil
	}
	if len(in.Text) > 65536 {
		return observer.Errorf(observer.CodeBadRequest, "Type at most 64 KiB at once.", "text too long to type (%d bytes)", len(in.Text))
	}
	x.focusApp(in.PID)
	x.mu.Lock()
	defer x.mu.Unlock()
	kb, err := x.keyboardLocked()
	if err != nil {
		return inputFailed("reading the keyboard map", err)
	}
	var syms []uint32
	for _, r := range in.Text {
		syms = append(syms, RuneKeysym(r))
	}
	if err := kb.bind(x, syms); err != nil {
		return err
	}
	for _, s := range syms {
		if err := ctx.Err(); err != nil {
			return observer.AsError(err)
		}
		if err := kb.tap(x, s, nil); err != nil {
			return err
		}
	}
	x.sync()
	kb.scheduleRestore(x)
	return nil
}

// pressKeys sends key combinations: modifiers down, key down and up, modifiers up.
func (b *Backend) pressKeys(ctx context.Context, x *xConn, pid int, combos []KeyCombo) error {
	x.focusApp(pid)
	x.mu.Lock()
	defer x.mu.Unlock()
	kb, err := x.keyboardLocked()
	if err != nil {
		return inputFailed("reading the keyboard map", err)
	}
	var syms []uint32
	for _, c := range combos {
		syms = append(syms, c.Mods...)
		syms = append(syms, c.Key)
	}
	if err := kb.bind(x, syms); err != nil {
		return err
	}
	for _, c := range combos {
		if err := ctx.Err(); err != nil {
			return observer.AsError(err)
		}
		if err := kb.tap(x, c.Key, c.Mods); err != nil {
			return err
		}
	}
	x.sync()
	kb.scheduleRestore(x)
	return nil
}
