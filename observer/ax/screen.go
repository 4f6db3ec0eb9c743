package ax

import (
	"math"

	"github.com/axbus/axbus/model"
)

// The platform-free half of reading the screen (screen_darwin.go makes the calls): which
// rect is the whole display, and what size a capture of a rect is.

// DisplayUnion is the smallest rect that holds every display's bounds (CGDisplayBounds: global
// points, the main display's top-left corner at 0, 0; a display left of or above it is at
// negative coordinates). Empty bounds are left out; none at all is the zero Rect.
func DisplayUnion(displays []model.Rect) model.Rect {
	var u model.Rect
	first := true
	for _, d := range displays {
		if d.Empty() {
			continue
		}
		if first {
			u, first = d, false
			continue
		}
		x, y := min(u.X, d.X), min(u.Y, d.Y)
		u = model.Rect{X: x, Y: y, W: max(u.X+u.W, d.X+d.W) - x, H: max(u.Y+u.H, d.Y+d.H) - y}
	}
	return u
}

// CaptureSize is the size, in whole points, of the image a capture of rect returns: one pixel
// per point, whatever the display's scale.
func CaptureSize(rect model.Rect) (w, h int) {
	return int(math.Round(rect.W)), int(math.Round(rect.H))
}
