//go:build linux

package atspi

import (
	"context"
	"strings"

	"github.com/jezek/xgb/xproto"

	"github.com/axbus/axbus/observer"
)

// ChangeWindow moves, resizes or closes app pid's top-level X window that shows win: a
// ConfigureWindow request (a window manager gets it redirected, and decides), or the
// WM_DELETE_WINDOW message a window's close button sends.
func (b *Backend) ChangeWindow(ctx context.Context, pid int, win observer.Window, ch observer.WindowChange) error {
	x, err := b.xconn()
	if err != nil {
		return err
	}
	wins, err := x.windowsOf(pid, true)
	if err != nil {
		return observer.Errorf(observer.CodeUnavailable, "Check that the X server runs.", "listing the X windows of pid %d: %v", pid, err).Wrap(err)
	}
	w, ok := xWindowOf(wins, win)
	if !ok {
		return observer.Errorf(observer.CodeWindowNotFound, "Name the window by its title (axbus windows); on Wayland apps without XWayland are out of reach.",
			"no X window of pid %d shows window %q", pid, win.Title)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	var cookie interface{ Check() error }
	switch ch.Op {
	case observer.WindowMove:
		cookie = xproto.ConfigureWindowChecked(x.c, w.id, xproto.ConfigWindowX|xproto.ConfigWindowY,
			[]uint32{uint32(int32(ch.X)), uint32(int32(ch.Y))})
	case observer.WindowResize:
		cookie = xproto.ConfigureWindowChecked(x.c, w.id, xproto.ConfigWindowWidth|xproto.ConfigWindowHeight,
			[]uint32{uint32(ch.W), uint32(ch.H)})
	case observer.WindowClose:
		ev := xproto.ClientMessageEvent{Format: 32, Window: w.id, Type: x.atom("WM_PROTOCOLS"),
			Data: xproto.ClientMessageDataUnionData32New([]uint32{uint32(x.atom("WM_DELETE_WINDOW")), uint32(xproto.TimeCurrentTime), 0, 0, 0})}
		cookie = xproto.SendEventChecked(x.c, false, w.id, xproto.EventMaskNoEvent, string(ev.Bytes()))
	}
	if err := cookie.Check(); err != nil {
		return observer.Errorf(observer.CodeActionFailed, "Check the window (axbus windows) and retry.", "X refused the %s: %v", ch.Op, err).Wrap(err)
	}
	return nil
}

// xWindowOf is the mapped X window titled like win, or the only one mapped.
func xWindowOf(wins []xWindow, win observer.Window) (xWindow, bool) {
	var mapped []xWindow
	for _, w := range wins {
		if w.mapped {
			mapped = append(mapped, w)
		}
	}
	for _, w := range mapped {
		if w.title == win.Title || strings.EqualFold(strings.TrimSpace(w.title), strings.TrimSpace(win.Title)) {
			return w, true
		}
	}
	if len(mapped) == 1 {
		return mapped[0], true
	}
	return xWindow{}, false
}
