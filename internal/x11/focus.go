package x11

import (
	"time"

	"github.com/jezek/xgb/xproto"
)

// Where physical input lands: an app's window given the focus and raised as a window manager
// would (or asked of the one that runs).

// focusSettle lets the app see its new input focus before keys arrive.
const focusSettle = 20 * time.Millisecond

// focusApp raises pid's top-most window and gives it the input focus, unless one of its windows
// has it already.
func (x *Conn) focusApp(pid int) {
	if pid <= 0 {
		return
	}
	wins, err := x.WindowsOf(pid)
	if err != nil || len(wins) == 0 {
		return
	}
	x.mu.Lock()
	focus, err := xproto.GetInputFocus(x.c).Reply()
	x.mu.Unlock()
	var top *Window
	for i := len(wins) - 1; i >= 0; i-- {
		w := wins[i]
		if !w.Shown() {
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
		x.Activate(*top)
	}
}

// Activate raises w and gives it the input focus: through the window manager (_NET_ACTIVE_WINDOW)
// when there is one, directly otherwise.
func (x *Conn) Activate(w Window) {
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
func (x *Conn) raise(w Window) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.hasWMLocked() {
		xproto.ConfigureWindow(x.c, w.id, xproto.ConfigWindowStackMode, []uint32{xproto.StackModeAbove})
		x.sync()
	}
}
