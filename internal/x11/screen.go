package x11

import (
	"context"
	"image"

	"github.com/axbus/axbus/model"

	"github.com/jezek/xgb/xproto"
)

// ScreenSize is the size of the default screen's root window: the whole display.
func (x *Conn) ScreenSize() (w, h int) {
	s := xproto.Setup(x.c).DefaultScreen(x.c)
	return int(s.WidthInPixels), int(s.HeightInPixels)
}

// xImageRows bounds one GetImage request's bytes (the server's reply limit is far larger; a
// band at a time keeps each reply and its copy small).
const xImageRows = 4 << 20

// Capture reads the w by h pixels at (left, top) of the root window with GetImage (ZPixmap):
// what the screen shows, windows composed, in bands of rows.
func (x *Conn) Capture(ctx context.Context, left, top, w, h int) (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	band := max(1, xImageRows/(4*w))
	x.mu.Lock()
	defer x.mu.Unlock()
	order := xproto.Setup(x.c).ImageByteOrder
	for y := 0; y < h; y += band {
		if err := ctx.Err(); err != nil {
			return nil, model.AsError(err)
		}
		rows := min(band, h-y)
		r, err := xproto.GetImage(x.c, xproto.ImageFormatZPixmap, xproto.Drawable(x.root), int16(left), int16(top+y),
			uint16(w), uint16(rows), 0xffffffff).Reply()
		if err != nil {
			return nil, model.Errorf(model.CodeUnavailable, "Check that the X server runs and the area is on screen.",
				"X GetImage: %v", err).Wrap(err)
		}
		if r.Depth != 24 && r.Depth != 32 || len(r.Data) < w*rows*4 {
			return nil, model.Errorf(model.CodeNotSupported, "Run the X server at depth 24 (Xvfb -screen 0 WxHx24).",
				"X screen depth %d: only 24-bit colour is read", r.Depth)
		}
		copyPixels(img.Pix[y*img.Stride:], r.Data[:w*rows*4], order == xproto.ImageOrderLSBFirst)
	}
	return img, nil
}

// copyPixels turns 32-bit X pixels (0x00RRGGBB, in the server's byte order) into RGBA.
func copyPixels(dst, src []byte, lsbFirst bool) {
	for i := 0; i+3 < len(src); i += 4 {
		if lsbFirst { // B G R X
			dst[i], dst[i+1], dst[i+2] = src[i+2], src[i+1], src[i]
		} else { // X R G B
			dst[i], dst[i+1], dst[i+2] = src[i+1], src[i+2], src[i+3]
		}
		dst[i+3] = 0xff
	}
}
