//go:build linux

package atspi

import (
	"errors"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/x11"
)

// The backend's two X connections, opened on first use: one for windows, input and the screen,
// one for the clipboard (whose event loop serves other apps).

// xconn returns the X connection, opening it on first use.
func (b *Backend) xconn() (*x11.Conn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errClosed()
	}
	if b.x != nil {
		return b.x, nil
	}
	if b.cfg.display == "" {
		return nil, model.Errorf(model.CodeUnavailable,
			"Physical input needs an X11 display: run axbus in an X session (DISPLAY set), or axbus serve --headless always.",
			"no X display: DISPLAY is not set")
	}
	x, err := x11.Dial(b.cfg.display, b.cfg.xauthority)
	if err != nil {
		return nil, model.Errorf(model.CodeUnavailable,
			"Check DISPLAY, that the X server runs (Wayland sessions need XWayland for physical input) and that XAUTHORITY names its cookie.",
			"cannot connect to the X display %s: %v", b.cfg.display, err).Wrap(err)
	}
	b.x = x
	return x, nil
}

// clip returns the clipboard connection, opened on first use.
func (b *Backend) clip() (*x11.Clipboard, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errClosed()
	}
	if b.clipboard != nil {
		return b.clipboard, nil
	}
	if b.cfg.display == "" {
		return nil, model.Errorf(model.CodeUnavailable, "The clipboard needs an X11 display: run axbus in an X session (DISPLAY set).",
			"no X display: DISPLAY is not set")
	}
	cc, err := x11.OpenClipboard(b.cfg.display, b.cfg.xauthority)
	if err != nil {
		var told *model.Error
		if errors.As(err, &told) {
			return nil, told
		}
		return nil, model.Errorf(model.CodeUnavailable, "Check DISPLAY and XAUTHORITY, and that the X server runs.",
			"cannot connect to the X display %s: %v", b.cfg.display, err).Wrap(err)
	}
	b.clipboard = cc
	return cc, nil
}

// clipboardErr is err with a closed clipboard told as a closed backend.
func clipboardErr(err error) error {
	if errors.Is(err, x11.ErrClosed) {
		return errClosed()
	}
	return err
}
