//go:build linux

package atspi

import (
	"context"
	"math"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/x11"
)

// ChangeWindow moves, resizes, closes, raises or minimizes app pid's top-level X window that
// shows win, as x11.Conn does it (asked of the window manager, or done as one would).
func (b *Backend) ChangeWindow(ctx context.Context, pid int, win model.Window, ch model.WindowChange) error {
	b.acting()
	defer b.acting()
	x, err := b.xconn()
	if err != nil {
		return err
	}
	wins, err := x.WindowsOf(pid)
	if err != nil {
		return model.Errorf(model.CodeUnavailable, "Check that the X server runs.", "listing the X windows of pid %d: %v", pid, err).Wrap(err)
	}
	w, ok := xWindowOf(wins, win, ch.Op == model.WindowRaise) // a minimized window is unmapped
	if !ok {
		return model.Errorf(model.CodeWindowNotFound, "Name the window by its title (axbus windows); on Wayland apps without XWayland are out of reach.",
			"no X window of pid %d shows window %q", pid, win.Title)
	}
	if ch.Op == model.WindowRaise {
		x.Restore(w)
		x.Activate(w)
		return nil
	}
	switch ch.Op {
	case model.WindowMinimize:
		err = x.Iconify(w)
	case model.WindowMove:
		err = x.Move(w, int(ch.X), int(ch.Y))
	case model.WindowResize:
		err = x.Resize(w, int(ch.W), int(ch.H))
	case model.WindowClose:
		err = x.RequestClose(w)
	}
	if err != nil {
		return model.Errorf(model.CodeActionFailed, "Check the window (axbus windows) and retry.", "X refused the %s: %v", ch.Op, err).Wrap(err)
	}
	return nil
}

// xWindowOf is the mapped X window titled like win (or, with unmapped, an unmapped one so
// titled), else the one at win's bounds, else the only one mapped bigger than GTK's 10x10
// helper windows. An X title may not be the accessible one (GTK's header bars).
func xWindowOf(wins []x11.Window, win model.Window, unmapped bool) (x11.Window, bool) {
	titled := func(w x11.Window) bool {
		return w.Title == win.Title || strings.EqualFold(strings.TrimSpace(w.Title), strings.TrimSpace(win.Title))
	}
	at := func(w x11.Window) bool {
		b := win.Bounds
		return b != nil && math.Abs(float64(w.X)-b.X) <= 1 && math.Abs(float64(w.Y)-b.Y) <= 1 &&
			math.Abs(float64(w.W)-b.W) <= 1 && math.Abs(float64(w.H)-b.H) <= 1
	}
	var big []x11.Window
	for _, test := range []func(x11.Window) bool{titled, at} {
		for _, w := range wins {
			if (w.Mapped || unmapped) && test(w) {
				return w, true
			}
		}
	}
	for _, w := range wins {
		if w.Mapped && (w.W > 10 || w.H > 10) {
			big = append(big, w)
		}
	}
	if len(big) == 1 {
		return big[0], true
	}
	return x11.Window{}, false
}
