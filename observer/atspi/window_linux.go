//go:build linux

package atspi

import (
	"context"
	"math"
	"strings"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/axbus/axbus/observer"
)

// ChangeWindow moves, resizes, closes, raises or minimizes app pid's top-level X window that
// shows win: a ConfigureWindow request (a window manager gets it redirected, and decides), the
// WM_DELETE_WINDOW message a window's close button sends, or what a window manager is asked to
// do (ICCCM WM_CHANGE_STATE, EWMH _NET_ACTIVE_WINDOW), done as it would do it when none runs.
func (b *Backend) ChangeWindow(ctx context.Context, pid int, win observer.Window, ch observer.WindowChange) error {
	b.acting()
	defer b.acting()
	x, err := b.xconn()
	if err != nil {
		return err
	}
	wins, err := x.windowsOf(pid, true)
	if err != nil {
		return observer.Errorf(observer.CodeUnavailable, "Check that the X server runs.", "listing the X windows of pid %d: %v", pid, err).Wrap(err)
	}
	w, ok := xWindowOf(wins, win, ch.Op == observer.WindowRaise) // a minimized window is unmapped
	if !ok {
		return observer.Errorf(observer.CodeWindowNotFound, "Name the window by its title (axbus windows); on Wayland apps without XWayland are out of reach.",
			"no X window of pid %d shows window %q", pid, win.Title)
	}
	if ch.Op == observer.WindowRaise {
		x.restore(w)
		x.activate(w)
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	var cookie interface{ Check() error }
	switch ch.Op {
	case observer.WindowMinimize:
		cookie = x.iconifyLocked(w)
	case observer.WindowMove:
		cookie = xproto.ConfigureWindowChecked(x.c, w.id, xproto.ConfigWindowX|xproto.ConfigWindowY,
			[]uint32{uint32(int32(ch.X)), uint32(int32(ch.Y))})
	case observer.WindowResize:
		cookie = xproto.ConfigureWindowChecked(x.c, w.id, xproto.ConfigWindowWidth|xproto.ConfigWindowHeight,
			[]uint32{uint32(ch.W), uint32(ch.H)})
	case observer.WindowClose:
		cookie = xproto.SendEventChecked(x.c, false, w.id, xproto.EventMaskNoEvent, string(x.deleteMessageLocked(w.id).Bytes()))
	}
	if err := cookie.Check(); err != nil {
		return observer.Errorf(observer.CodeActionFailed, "Check the window (axbus windows) and retry.", "X refused the %s: %v", ch.Op, err).Wrap(err)
	}
	return nil
}

// xWindowOf is the mapped X window titled like win (or, with unmapped, an unmapped one so
// titled), else the one at win's bounds, else the only one mapped bigger than GTK's 10x10
// helper windows. An X title may not be the accessible one (GTK's header bars).
func xWindowOf(wins []xWindow, win observer.Window, unmapped bool) (xWindow, bool) {
	titled := func(w xWindow) bool {
		return w.title == win.Title || strings.EqualFold(strings.TrimSpace(w.title), strings.TrimSpace(win.Title))
	}
	at := func(w xWindow) bool {
		b := win.Bounds
		return b != nil && math.Abs(float64(w.x)-b.X) <= 1 && math.Abs(float64(w.y)-b.Y) <= 1 &&
			math.Abs(float64(w.w)-b.W) <= 1 && math.Abs(float64(w.h)-b.H) <= 1
	}
	var big []xWindow
	for _, test := range []func(xWindow) bool{titled, at} {
		for _, w := range wins {
			if (w.mapped || unmapped) && test(w) {
				return w, true
			}
		}
	}
	for _, w := range wins {
		if w.mapped && (w.w > 10 || w.h > 10) {
			big = append(big, w)
		}
	}
	if len(big) == 1 {
		return big[0], true
	}
	return xWindow{}, false
}

// The ICCCM WM_STATE values.
const (
	wmStateNormal = 1
	wmStateIconic = 3
)

// iconifyLocked asks the window manager to iconify w (ICCCM 4.1.4: WM_CHANGE_STATE to the
// root); with none, it does what one would: unmaps w and marks it iconic (WM_STATE, and
// _NET_WM_STATE_HIDDEN). GTK takes an unmap it did not ask for as being iconified; Chromium
// reads _NET_WM_STATE_HIDDEN. Callers hold x.mu.
func (x *xConn) iconifyLocked(w xWindow) interface{ Check() error } {
	if x.hasWMLocked() {
		ev := xproto.ClientMessageEvent{Format: 32, Window: w.id, Type: x.atom("WM_CHANGE_STATE"),
			Data: xproto.ClientMessageDataUnionData32New([]uint32{wmStateIconic, 0, 0, 0, 0})}
		return xproto.SendEventChecked(x.c, false, x.root, xproto.EventMaskSubstructureRedirect|xproto.EventMaskSubstructureNotify, string(ev.Bytes()))
	}
	x.setWMStateLocked(w.id, wmStateIconic)
	x.setHiddenLocked(w.id, true)
	return xproto.UnmapWindowChecked(x.c, w.id)
}

// restore maps an iconified w again when no window manager runs (one restores a window it is
// asked to activate).
func (x *xConn) restore(w xWindow) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if w.mapped || x.hasWMLocked() {
		return
	}
	x.setWMStateLocked(w.id, wmStateNormal)
	x.setHiddenLocked(w.id, false)
	xproto.MapWindow(x.c, w.id)
	x.sync()
}

// setWMStateLocked sets w's WM_STATE (the state, no icon window), as a window manager does.
func (x *xConn) setWMStateLocked(w xproto.Window, state uint32) {
	data := make([]byte, 8)
	xgb.Put32(data, state)
	a := x.atom("WM_STATE")
	xproto.ChangeProperty(x.c, xproto.PropModeReplace, w, a, a, 32, 2, data)
}

// setHiddenLocked adds _NET_WM_STATE_HIDDEN to w's _NET_WM_STATE, or takes it out.
func (x *xConn) setHiddenLocked(w xproto.Window, hidden bool) {
	prop, hiddenAtom := x.atom("_NET_WM_STATE"), x.atom("_NET_WM_STATE_HIDDEN")
	var atoms []byte
	if r, err := xproto.GetProperty(x.c, false, w, prop, xproto.AtomAtom, 0, 64).Reply(); err == nil && r.Format == 32 {
		for i := 0; i+4 <= len(r.Value); i += 4 {
			if xproto.Atom(xgb.Get32(r.Value[i:])) != hiddenAtom {
				atoms = append(atoms, r.Value[i:i+4]...)
			}
		}
	}
	if hidden {
		atoms = append(atoms, 0, 0, 0, 0)
		xgb.Put32(atoms[len(atoms)-4:], uint32(hiddenAtom))
	}
	xproto.ChangeProperty(x.c, xproto.PropModeReplace, w, prop, xproto.AtomAtom, 32, uint32(len(atoms)/4), atoms)
}
