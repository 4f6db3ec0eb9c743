package x11

import (
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Windows moved, resized, iconified, restored and closed: a ConfigureWindow request (a window
// manager gets it redirected, and decides), the WM_DELETE_WINDOW message a window's close button
// sends, or what a window manager is asked to do (ICCCM WM_CHANGE_STATE), done as it would do it
// when none runs.

// The ICCCM WM_STATE values.
const (
	wmStateNormal = 1
	wmStateIconic = 3
)

// Move asks to put w's top-left corner at (left, top) on the screen.
func (x *Conn) Move(w Window, left, top int) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return xproto.ConfigureWindowChecked(x.c, w.id, xproto.ConfigWindowX|xproto.ConfigWindowY,
		[]uint32{uint32(int32(left)), uint32(int32(top))}).Check()
}

// Resize asks to make w width by height.
func (x *Conn) Resize(w Window, width, height int) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return xproto.ConfigureWindowChecked(x.c, w.id, xproto.ConfigWindowWidth|xproto.ConfigWindowHeight,
		[]uint32{uint32(width), uint32(height)}).Check()
}

// RequestClose sends w the WM_DELETE_WINDOW message its close button sends (the app may ask to
// save first).
func (x *Conn) RequestClose(w Window) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return xproto.SendEventChecked(x.c, false, w.id, xproto.EventMaskNoEvent, string(x.deleteMessageLocked(w.id).Bytes())).Check()
}

// Iconify asks the window manager to iconify w (ICCCM 4.1.4: WM_CHANGE_STATE to the root); with
// none, it does what one would: unmaps w and marks it iconic (WM_STATE, and
// _NET_WM_STATE_HIDDEN). GTK takes an unmap it did not ask for as being iconified; Chromium
// reads _NET_WM_STATE_HIDDEN.
func (x *Conn) Iconify(w Window) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.hasWMLocked() {
		ev := xproto.ClientMessageEvent{Format: 32, Window: w.id, Type: x.atom("WM_CHANGE_STATE"),
			Data: xproto.ClientMessageDataUnionData32New([]uint32{wmStateIconic, 0, 0, 0, 0})}
		return xproto.SendEventChecked(x.c, false, x.root, xproto.EventMaskSubstructureRedirect|xproto.EventMaskSubstructureNotify, string(ev.Bytes())).Check()
	}
	x.setWMStateLocked(w.id, wmStateIconic)
	x.setHiddenLocked(w.id, true)
	return xproto.UnmapWindowChecked(x.c, w.id).Check()
}

// Restore maps an iconified w again when no window manager runs (one restores a window it is
// asked to activate).
func (x *Conn) Restore(w Window) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if w.Mapped || x.hasWMLocked() {
		return
	}
	x.setWMStateLocked(w.id, wmStateNormal)
	x.setHiddenLocked(w.id, false)
	xproto.MapWindow(x.c, w.id)
	x.sync()
}

// setWMStateLocked sets w's WM_STATE (the state, no icon window), as a window manager does.
func (x *Conn) setWMStateLocked(w xproto.Window, state uint32) {
	data := make([]byte, 8)
	xgb.Put32(data, state)
	a := x.atom("WM_STATE")
	xproto.ChangeProperty(x.c, xproto.PropModeReplace, w, a, a, 32, 2, data)
}

// setHiddenLocked adds _NET_WM_STATE_HIDDEN to w's _NET_WM_STATE, or takes it out.
func (x *Conn) setHiddenLocked(w xproto.Window, hidden bool) {
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

// CloseWindowsOf sends WM_DELETE_WINDOW to each mapped top-level window of pid that takes it,
// and says to how many.
func (x *Conn) CloseWindowsOf(pid int) int {
	wins, err := x.WindowsOf(pid)
	if err != nil {
		return 0
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	n := 0
	for _, w := range wins {
		if !w.Mapped || !x.takesDeleteLocked(w.id) {
			continue
		}
		xproto.SendEvent(x.c, false, w.id, xproto.EventMaskNoEvent, string(x.deleteMessageLocked(w.id).Bytes()))
		n++
	}
	x.sync()
	return n
}

// takesDeleteLocked reports whether w lists WM_DELETE_WINDOW in its WM_PROTOCOLS.
func (x *Conn) takesDeleteLocked(w xproto.Window) bool {
	r, err := xproto.GetProperty(x.c, false, w, x.atom("WM_PROTOCOLS"), xproto.AtomAtom, 0, 32).Reply()
	if err != nil || r.Format != 32 {
		return false
	}
	del := x.atom("WM_DELETE_WINDOW")
	for i := 0; i+4 <= len(r.Value); i += 4 {
		if xproto.Atom(xgb.Get32(r.Value[i:])) == del {
			return true
		}
	}
	return false
}

// deleteMessageLocked is the WM_DELETE_WINDOW message a window's close button sends.
func (x *Conn) deleteMessageLocked(w xproto.Window) xproto.ClientMessageEvent {
	return xproto.ClientMessageEvent{Format: 32, Window: w, Type: x.atom("WM_PROTOCOLS"),
		Data: xproto.ClientMessageDataUnionData32New([]uint32{uint32(x.atom("WM_DELETE_WINDOW")), uint32(xproto.TimeCurrentTime), 0, 0, 0})}
}
