//go:build linux

package atspi

import (
	"time"

	"github.com/jezek/xgb/xproto"
)

// Where physical input lands: the X window at a point, and an app's window given the focus and
// raised as a window manager would (or asked of the one that runs).

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
