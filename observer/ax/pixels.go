package ax

import (
	"image"

	"github.com/axbus/axbus/model"
)

// The pixels of a screen capture, from the CGImage's bytes to the *image.RGBA the observer takes:
// one pixel per point of the captured rect, so that pixel (px, py) is the global point
// (rect.X+px, rect.Y+py). A Retina display captures two (or more) pixels per point: each output
// pixel is the mean of the pixels it covers. The layout comes from CGImageGetBitmapInfo, decoded
// here so that it is tested on every OS.

// The fields of a CGBitmapInfo (CoreGraphics/CGImage.h).
const (
	bitmapAlphaInfoMask    = 0x1f    // kCGBitmapAlphaInfoMask
	bitmapFloatComponents  = 1 << 8  // kCGBitmapFloatComponents
	bitmapByteOrderMask    = 0x7000  // kCGBitmapByteOrderMask
	bitmapByteOrderDefault = 0       // kCGBitmapByteOrderDefault: big-endian
	bitmapByteOrder32Big   = 4 << 12 // kCGBitmapByteOrder32Big
	bitmapByteOrder32Lit   = 2 << 12 // kCGBitmapByteOrder32Little
	bitmapPixelFormatMask  = 0xf0000 // kCGImagePixelFormatMask (macOS 10.14+): 0 is packed
	bitmapKnownBits        = bitmapAlphaInfoMask | bitmapFloatComponents | bitmapByteOrderMask | bitmapPixelFormatMask
)

// The CGImageAlphaInfo values (CoreGraphics/CGImage.h).
const (
	alphaPremultipliedLast  = 1 // kCGImageAlphaPremultipliedLast
	alphaPremultipliedFirst = 2 // kCGImageAlphaPremultipliedFirst
	alphaLast               = 3 // kCGImageAlphaLast
	alphaFirst              = 4 // kCGImageAlphaFirst
	alphaNoneSkipLast       = 5 // kCGImageAlphaNoneSkipLast
	alphaNoneSkipFirst      = 6 // kCGImageAlphaNoneSkipFirst
)

// PixelLayout is where each channel of a 32-bit pixel sits in memory, and what its alpha means.
type PixelLayout struct {
	R, G, B, A int // byte offsets within the pixel; A is -1 when the fourth byte is padding
	// Straight is alpha not premultiplied into the colours (image.RGBA premultiplies: they are
	// multiplied on conversion).
	Straight bool
}

// LayoutOf decodes a CGImage's bitmap info for 8 bits per channel and 32 per pixel, the formats
// a screen capture comes in (usually BGRA: alpha premultiplied first, 32-bit little-endian).
// Anything else (16-bit or float channels, 24-bit pixels) is NOT_SUPPORTED.
func LayoutOf(bitmapInfo uint32, bitsPerPixel, bitsPerComponent int) (PixelLayout, error) {
	alpha := bitmapInfo & bitmapAlphaInfoMask
	order := bitmapInfo & bitmapByteOrderMask
	if bitsPerPixel != 32 || bitsPerComponent != 8 || bitmapInfo&bitmapFloatComponents != 0 ||
		bitmapInfo&bitmapPixelFormatMask != 0 || bitmapInfo&^bitmapKnownBits != 0 {
		return PixelLayout{}, errPixelFormat(bitmapInfo, bitsPerPixel, bitsPerComponent)
	}
	// The channels in their logical order, most significant byte of the 32-bit word first.
	var logical [4]byte // 'r', 'g', 'b', 'a' or 'x' (padding)
	straight := false
	switch alpha {
	case alphaPremultipliedLast:
		logical = [4]byte{'r', 'g', 'b', 'a'}
	case alphaPremultipliedFirst:
		logical = [4]byte{'a', 'r', 'g', 'b'}
	case alphaLast:
		logical, straight = [4]byte{'r', 'g', 'b', 'a'}, true
	case alphaFirst:
		logical, straight = [4]byte{'a', 'r', 'g', 'b'}, true
	case alphaNoneSkipLast:
		logical = [4]byte{'r', 'g', 'b', 'x'}
	case alphaNoneSkipFirst:
		logical = [4]byte{'x', 'r', 'g', 'b'}
	default: // none (24-bit pixels), alpha only, or unknown
		return PixelLayout{}, errPixelFormat(bitmapInfo, bitsPerPixel, bitsPerComponent)
	}
	switch order {
	case bitmapByteOrderDefault, bitmapByteOrder32Big:
	case bitmapByteOrder32Lit: // the word's bytes reversed in memory
		logical = [4]byte{logical[3], logical[2], logical[1], logical[0]}
	default: // 16-bit orders make no sense for 8-bit channels
		return PixelLayout{}, errPixelFormat(bitmapInfo, bitsPerPixel, bitsPerComponent)
	}
	l := PixelLayout{A: -1, Straight: straight}
	for i, c := range logical {
		switch c {
		case 'r':
			l.R = i
		case 'g':
			l.G = i
		case 'b':
			l.B = i
		case 'a':
			l.A = i
		}
	}
	return l, nil
}

func errPixelFormat(info uint32, bpp, bpc int) *model.Error {
	return model.Errorf(model.CodeNotSupported,
		"Set the display to its standard colour mode (not HDR or a high bit depth) and retry; otherwise report it with these details.",
		"the screen capture is in a pixel format axbus does not read (bitmap info %#x, %d bits per pixel, %d per channel)", info, bpp, bpc).
		With("bitmap_info", info)
}

// ToRGBA converts src, an image of sw x sh pixels with stride bytes per row laid out as l, into
// an *image.RGBA of w x h (the captured rect in points). Each output pixel is the mean of the
// source pixels it covers: a 2x Retina capture becomes one pixel per point, and a capture of the
// rect's own size is copied unchanged. It fails on a buffer too short for its dimensions.
func ToRGBA(src []byte, sw, sh, stride int, l PixelLayout, w, h int) (*image.RGBA, error) {
	if sw <= 0 || sh <= 0 || w <= 0 || h <= 0 || stride < 4*sw || len(src) < stride*(sh-1)+4*sw {
		return nil, model.Errorf(model.CodeInternal, "Retry; if it persists, report it with the daemon's log.",
			"the screen capture's pixels do not match its size (%dx%d, %d bytes per row, %d bytes) or the rect's (%dx%d)",
			sw, sh, stride, len(src), w, h)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	// The source columns each output column covers, computed once for all rows.
	x0s, x1s := spans(w, sw)
	y0s, y1s := spans(h, sh)
	for y := range h {
		o := out.Pix[y*out.Stride:]
		for x := range w {
			var r, g, b, a, n uint32
			for sy := y0s[y]; sy < y1s[y]; sy++ {
				row := src[sy*stride:]
				for sx := x0s[x]; sx < x1s[x]; sx++ {
					pr, pg, pb, pa := l.pixel(row[4*sx : 4*sx+4])
					r, g, b, a, n = r+pr, g+pg, b+pb, a+pa, n+1
				}
			}
			p := o[4*x : 4*x+4]
			p[0], p[1], p[2], p[3] = uint8((r+n/2)/n), uint8((g+n/2)/n), uint8((b+n/2)/n), uint8((a+n/2)/n)
		}
	}
	return out, nil
}

// spans maps each of n output positions onto the source positions [from, to) it covers, out of
// src: at least one each, so that a source smaller than the output is stretched (nearest).
func spans(n, src int) (from, to []int) {
	from, to = make([]int, n), make([]int, n)
	for i := range n {
		from[i] = i * src / n
		to[i] = max((i+1)*src/n, from[i]+1)
	}
	return from, to
}

// pixel reads one source pixel as premultiplied R, G, B, A (image.RGBA's model).
func (l PixelLayout) pixel(p []byte) (r, g, b, a uint32) {
	r, g, b, a = uint32(p[l.R]), uint32(p[l.G]), uint32(p[l.B]), 0xff
	if l.A >= 0 {
		a = uint32(p[l.A])
	}
	if l.Straight && a != 0xff {
		r, g, b = (r*a+127)/255, (g*a+127)/255, (b*a+127)/255
	}
	return r, g, b, a
}
