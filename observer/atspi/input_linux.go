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

// sync waits until the X server has handled every request sent so far. Callers hold x.mu.
func (x *xConn) sync() { _, _ = xproto.GetInputFocus(x.c).Reply() }

// windowAt returns pid's top-most mapped top-level window that contains the point, or its
// top-most mapped one.
func (x *xConn) windowAt(pid, px, py int) (xWindow, bool) {
	wins, err := x.windowsOf(pid, true)
	if err != nil {
		return xWindow{}, false
	}
	var top xWindow
	found := false
	for i := len(wins) - 1; i >= 0; i-- {
		w := wins[i]
		if !w.mapped || w.w <= 1 || w.h <= 1 {
			continue
		}
		if px >= w.x && px < w.x+w.w && py >= w.y && py < w.y+w.h {
			return w, true
		}
		if !found {
			top, found = w, true
		}
	}
	return top, found
}

// focusApp raises pid's top-most window and gives it the input focus, unless one of its windows
// has it already.
func (x *xConn) focusApp(pid int) {
	if pid <= 0 {
		return
	}
	wins, err := x.windowsOf(pid, true)
	if err != nil || len(wins) == 0 {
		return
	}
	x.mu.Lock()
	focus, err := xproto.GetInputFocus(x.c).Reply()
	x.mu.Unlock()
	var top *xWindow
	for i := len(wins) - 1; i >= 0; i-- {
		w := wins[i]
		if !w.mapped || w.w <= 1 || w.h <= 1 {
			continue
		}
		if err == nil && focus.Focus == w.id {
			x.raise(w)
			return
		}
		if top == nil {
			top = &wins[i]
		}
	}
	if top != nil {
		x.activate(*top)
	}
}

// activate raises w and gives it the input focus: through the window manager (_NET_ACTIVE_WINDOW)
// when there is one, directly otherwise.
func (x *xConn) activate(w xWindow) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.hasWMLocked() {
		data := xproto.ClientMessageDataUnionData32New([]uint32{2, 0, 0, 0, 0}) // source: pager
		ev := xproto.ClientMessageEvent{Format: 32, Window: w.id, Type: x.atom("_NET_ACTIVE_WINDOW"), Data: data}
		xproto.SendEvent(x.c, false, x.root, xproto.EventMaskSubstructureRedirect|xproto.EventMaskSubstructureNotify, string(ev.Bytes()))
	} else {
		xproto.ConfigureWindow(x.c, w.id, xproto.ConfigWindowStackMode, []uint32{xproto.StackModeAbove})
		xproto.SetInputFocus(x.c, xproto.InputFocusParent, w.id, xproto.TimeCurrentTime)
	}
	x.sync()
	x.mu.Unlock()
	time.Sleep(focusSettle)
	x.mu.Lock()
}

// raise puts w on top without changing the focus (no window manager only).
func (x *xConn) raise(w xWindow) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.hasWMLocked() {
		xproto.ConfigureWindow(x.c, w.id, xproto.ConfigWindowStackMode, []uint32{xproto.StackModeAbove})
		x.sync()
	}
}

// hasWMLocked reports whether an EWMH window manager runs (_NET_SUPPORTING_WM_CHECK on the root).
func (x *xConn) hasWMLocked() bool {
	r, err := xproto.GetProperty(x.c, false, x.root, x.atom("_NET_SUPPORTING_WM_CHECK"), xproto.AtomWindow, 0, 1).Reply()
	return err == nil && r.Format == 32 && len(r.Value) >= 4
}

// keyboard is the X keyboard map as typing needs it: where each keysym is, and which keycodes are
// free to bind keysyms the map lacks.
type keyboard struct {
	perCode int
	min     xproto.Keycode
	syms    []xproto.Keysym // perCode per keycode from min
	spare   []xproto.Keycode
	bound   map[uint32]xproto.Keycode // keysyms bound to spare keycodes
	timer   *time.Timer
	gen     int
}

// keyboardLocked reads the keyboard map on first use. Callers hold x.mu.
func (x *xConn) keyboardLocked() (*keyboard, error) {
	if x.keys != nil {
		if x.keys.timer != nil {
			x.keys.timer.Stop()
		}
		return x.keys, nil
	}
	count := int(x.maxKey) - int(x.minKey) + 1
	r, err := xproto.GetKeyboardMapping(x.c, x.minKey, byte(count)).Reply()
	if err != nil {
		return nil, err
	}
	kb := &keyboard{perCode: int(r.KeysymsPerKeycode), min: x.minKey, syms: r.Keysyms, bound: map[uint32]xproto.Keycode{}}
	for i := 0; i < count; i++ {
		empty := true
		for j := 0; j < kb.perCode; j++ {
			if kb.syms[i*kb.perCode+j] != 0 {
				empty = false
			}
		}
		if empty {
			kb.spare = append(kb.spare, x.minKey+xproto.Keycode(i))
		}
	}
	x.keys = kb
	return kb, nil
}

// find returns the keycode and shift level (0 or 1) that produce sym.
func (kb *keyboard) find(sym uint32) (xproto.Keycode, int, bool) {
	if code, ok := kb.bound[sym]; ok {
		return code, 0, true
	}
	n := len(kb.syms) / max(kb.perCode, 1)
	for level := 0; level < 2 && level < kb.perCode; level++ {
		for i := 0; i < n; i++ {
			if uint32(kb.syms[i*kb.perCode+level]) == sym {
				return kb.min + xproto.Keycode(i), level, true
			}
		}
	}
	return 0, 0, false
}

// bind binds every keysym of syms that the map lacks to a spare keycode (at every level, so
// that shift does not matter), in one ChangeKeyboardMapping per keycode. Callers hold x.mu.
func (kb *keyboard) bind(x *xConn, syms []uint32) error {
	var need []uint32
	seen := map[uint32]bool{}
	for _, s := range syms {
		if _, _, ok := kb.find(s); !ok && !seen[s] {
			seen[s] = true
			need = append(need, s)
		}
	}
	if len(need) == 0 {
		return nil
	}
	free := kb.freeCodes()
	if len(need) > len(free) {
		// Recycle the codes bound for earlier input.
		kb.restore(x)
		free = kb.freeCodes()
	}
	if len(need) > len(free) {
		return observer.Errorf(observer.CodeNotSupported, "Type the text in smaller pieces.",
			"the text needs %d characters missing from the keyboard map, and only %d keycodes are free to bind them", len(need), len(free))
	}
	for i, s := range need {
		code := free[i]
		list := make([]xproto.Keysym, kb.perCode)
		for j := range list {
			list[j] = xproto.Keysym(s)
		}
		if err := xproto.ChangeKeyboardMappingChecked(x.c, 1, code, byte(kb.perCode), list).Check(); err != nil {
			return inputFailed("binding a keycode", err)
		}
		kb.bound[s] = code
	}
	x.sync()
	return nil
}

// freeCodes lists the spare keycodes not bound now.
func (kb *keyboard) freeCodes() []xproto.Keycode {
	used := map[xproto.Keycode]bool{}
	for _, c := range kb.bound {
		used[c] = true
	}
	var out []xproto.Keycode
	for _, c := range kb.spare {
		if !used[c] {
			out = append(out, c)
		}
	}
	return out
}

// tap presses and releases sym with mods held (and shift when sym sits at the shift level).
// Callers hold x.mu.
func (kb *keyboard) tap(x *xConn, sym uint32, mods []uint32) error {
	code, level, ok := kb.find(sym)
	if !ok {
		return observer.Errorf(observer.CodeNotSupported, "Use keys of the keyboard map.", "keysym 0x%x cannot be typed", sym)
	}
	var held []xproto.Keycode
	hasShift := false
	for _, m := range mods {
		mc, _, ok := kb.find(m)
		if !ok {
			return observer.Errorf(observer.CodeNotSupported, "Use shift, ctrl, alt or super.", "modifier keysym 0x%x is not on the keyboard", m)
		}
		if m == xkShiftL {
			hasShift = true
		}
		held = append(held, mc)
	}
	if level == 1 && !hasShift {
		if sc, _, ok := kb.find(xkShiftL); ok {
			held = append(held, sc)
		}
	}
	for _, h := range held {
		if err := xtest.FakeInputChecked(x.c, xproto.KeyPress, byte(h), 0, x.root, 0, 0, 0).Check(); err != nil {
			return inputFailed("pressing a modifier", err)
		}
	}
	err := xtest.FakeInputChecked(x.c, xproto.KeyPress, byte(code), 0, x.root, 0, 0, 0).Check()
	if err == nil {
		err = xtest.FakeInputChecked(x.c, xproto.KeyRelease, byte(code), 0, x.root, 0, 0, 0).Check()
	}
	for i := len(held) - 1; i >= 0; i-- {
		if e := xtest.FakeInputChecked(x.c, xproto.KeyRelease, byte(held[i]), 0, x.root, 0, 0, 0).Check(); e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		return inputFailed("pressing a key", err)
	}
	return nil
}

// scheduleRestore unbinds the keycodes bound for typing after restoreDelay. Callers hold x.mu.
func (kb *keyboard) scheduleRestore(x *xConn) {
	if len(kb.bound) == 0 {
		return
	}
	kb.gen++
	gen := kb.gen
	kb.timer = time.AfterFunc(restoreDelay, func() {
		x.mu.Lock()
		defer x.mu.Unlock()
		if x.keys == kb && kb.gen == gen {
			kb.restore(x)
		}
	})
}

// restore gives the bound keycodes back their (empty) mapping. Callers hold x.mu.
func (kb *keyboard) restore(x *xConn) {
	if kb.timer != nil {
		kb.timer.Stop()
	}
	for s, code := range kb.bound {
		list := make([]xproto.Keysym, kb.perCode)
		xproto.ChangeKeyboardMapping(x.c, 1, code, byte(kb.perCode), list)
		delete(kb.bound, s)
	}
	x.sync()
}
