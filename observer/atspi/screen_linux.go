//go:build linux

package atspi

import (
	"context"
	"image"

	"github.com/axbus/axbus/model"
)

// ScreenBounds is the X screen's root window: the whole display.
func (b *Backend) ScreenBounds(context.Context) (model.Rect, error) {
	x, err := b.xconn()
	if err != nil {
		return model.Rect{}, err
	}
	w, h := x.ScreenSize()
	return model.Rect{W: float64(w), H: float64(h)}, nil
}

// Capture reads rect of the screen as the X server composes it (x11.Conn.Capture).
func (b *Backend) Capture(ctx context.Context, rect model.Rect) (*image.RGBA, error) {
	x, err := b.xconn()
	if err != nil {
		return nil, err
	}
	return x.Capture(ctx, int(rect.X), int(rect.Y), int(rect.W), int(rect.H))
}
