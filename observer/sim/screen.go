package sim

import (
	"context"
	"image"

	"github.com/axbus/axbus/model"
)

// screen is the simulated display's size.
var screen = model.Rect{W: 2560, H: 1600}

// ScreenBounds is the simulated display.
func (d *Desktop) ScreenBounds(context.Context) (model.Rect, error) { return screen, nil }

// Capture paints the simulated display as noise, the same at the same point: pixels that do not
// compress, so that a screenshot of a few megabytes tests its transport. It stops when ctx ends,
// as a real capture does between its strips.
func (d *Desktop) Capture(ctx context.Context, rect model.Rect) (*image.RGBA, error) {
	w, h := int(rect.W), int(rect.H)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		if err := ctx.Err(); err != nil {
			return nil, model.AsError(err)
		}
		for x := range w {
			v := noise(uint32(int(rect.X)+x), uint32(int(rect.Y)+y))
			p := img.Pix[y*img.Stride+x*4:]
			p[0], p[1], p[2], p[3] = byte(v), byte(v>>8), byte(v>>16), 0xff
		}
	}
	return img, nil
}

// noise is a hash of a point (xorshift-multiply).
func noise(x, y uint32) uint32 {
	v := x*0x9E3779B1 ^ y*0x85EBCA77
	v ^= v >> 15
	v *= 0x2C1B3C6D
	v ^= v >> 12
	return v
}
