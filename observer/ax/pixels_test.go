package ax

import (
	"image"
	"testing"

	"github.com/axbus/axbus/model"
)

// The bitmap infos a capture may come in: CoreGraphics's usual screen format and the others of
// 8-bit channels in 32-bit pixels.
const (
	infoBGRA = alphaPremultipliedFirst | bitmapByteOrder32Lit // the usual screen capture
	infoRGBA = alphaPremultipliedLast | bitmapByteOrder32Big
)

func TestLayoutOfTheFormats(t *testing.T) {
	for _, c := range []struct {
		name string
		info uint32
		want PixelLayout
	}{
		{"BGRA premultiplied (first, 32 little)", infoBGRA, PixelLayout{R: 2, G: 1, B: 0, A: 3}},
		{"RGBA premultiplied (last, 32 big)", infoRGBA, PixelLayout{R: 0, G: 1, B: 2, A: 3}},
		{"RGBA premultiplied, default order", alphaPremultipliedLast, PixelLayout{R: 0, G: 1, B: 2, A: 3}},
		{"ARGB premultiplied (first, 32 big)", alphaPremultipliedFirst | bitmapByteOrder32Big, PixelLayout{R: 1, G: 2, B: 3, A: 0}},
		{"ABGR premultiplied (last, 32 little)", alphaPremultipliedLast | bitmapByteOrder32Lit, PixelLayout{R: 3, G: 2, B: 1, A: 0}},
		{"BGRA straight", alphaFirst | bitmapByteOrder32Lit, PixelLayout{R: 2, G: 1, B: 0, A: 3, Straight: true}},
		{"RGBA straight", alphaLast, PixelLayout{R: 0, G: 1, B: 2, A: 3, Straight: true}},
		{"BGRX (skip first, 32 little)", alphaNoneSkipFirst | bitmapByteOrder32Lit, PixelLayout{R: 2, G: 1, B: 0, A: -1}},
		{"RGBX (skip last)", alphaNoneSkipLast, PixelLayout{R: 0, G: 1, B: 2, A: -1}},
	} {
		got, err := LayoutOf(c.info, 32, 8)
		if err != nil || got != c.want {
			t.Errorf("%s (%#x): %+v, %v; want %+v", c.name, c.info, got, err, c.want)
		}
	}
}

func TestLayoutOfRefusesOtherFormats(t *testing.T) {
	for _, c := range []struct {
		name     string
		info     uint32
		bpp, bpc int
	}{
		{"24-bit pixels", 0, 24, 8},
		{"16-bit channels", alphaPremultipliedLast, 64, 16},
		{"float channels", alphaPremultipliedLast | bitmapFloatComponents, 32, 8},
		{"alpha only", 7, 32, 8},
		{"no alpha at 32 bits", 0, 32, 8},
		{"16-bit byte order", alphaPremultipliedFirst | 1<<12, 32, 8},
		{"a packed pixel format (RGB101010)", alphaNoneSkipFirst | 3<<16, 32, 8},
		{"unknown bits", infoBGRA | 1<<24, 32, 8},
	} {
		if _, err := LayoutOf(c.info, c.bpp, c.bpc); model.CodeOf(err) != model.CodeNotSupported {
			t.Errorf("%s: %v, want NOT_SUPPORTED", c.name, err)
		}
	}
}

// bgra is one BGRA pixel.
func bgra(r, g, b, a byte) []byte { return []byte{b, g, r, a} }

func TestToRGBACopiesAOnePointCapture(t *testing.T) {
	l, _ := LayoutOf(infoBGRA, 32, 8)
	// 2x2 with a stride of 3 pixels: the padding must be skipped.
	var src []byte
	src = append(src, bgra(255, 0, 0, 255)...)
	src = append(src, bgra(0, 255, 0, 255)...)
	src = append(src, 9, 9, 9, 9)
	src = append(src, bgra(0, 0, 255, 255)...)
	src = append(src, bgra(10, 20, 30, 128)...)
	src = append(src, 9, 9, 9, 9)
	img, err := ToRGBA(src, 2, 2, 12, l, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 128}
	if string(img.Pix) != string(want) || img.Bounds().Dx() != 2 || img.Bounds().Dy() != 2 {
		t.Fatalf("%v, want %v", img.Pix, want)
	}
}

func TestToRGBAScalesARetinaCaptureToPoints(t *testing.T) {
	l, _ := LayoutOf(infoRGBA, 32, 8)
	// 4x2 pixels for 2x1 points: the left point's four pixels are 0 and 100, the right's 200.
	row := func(a, b, c, d byte) []byte {
		return []byte{a, a, a, 255, b, b, b, 255, c, c, c, 255, d, d, d, 255}
	}
	src := append(row(0, 100, 200, 200), row(100, 0, 200, 200)...)
	img, err := ToRGBA(src, 4, 2, 16, l, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Pix[0:4]; got[0] != 50 || got[3] != 255 {
		t.Errorf("left point %v, want the mean 50", got)
	}
	if got := img.Pix[4:8]; got[0] != 200 {
		t.Errorf("right point %v, want 200", got)
	}
	// The pixel of point (px, py) is at (px, py): the image is exactly the rect's size.
	if img.Bounds() != image.Rect(0, 0, 2, 1) {
		t.Errorf("bounds %v", img.Bounds())
	}
}

func TestToRGBAPremultipliesStraightAlphaAndFillsPadding(t *testing.T) {
	straight, _ := LayoutOf(alphaLast, 32, 8)
	img, err := ToRGBA([]byte{200, 100, 0, 128}, 1, 1, 4, straight, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Pix[:4]; got[0] != 100 || got[1] != 50 || got[2] != 0 || got[3] != 128 {
		t.Errorf("straight alpha: %v, want 100 50 0 128", got)
	}
	skip, _ := LayoutOf(alphaNoneSkipFirst|bitmapByteOrder32Lit, 32, 8)
	img, err = ToRGBA([]byte{3, 2, 1, 0}, 1, 1, 4, skip, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Pix[:4]; got[0] != 1 || got[1] != 2 || got[2] != 3 || got[3] != 255 {
		t.Errorf("padding: %v, want 1 2 3 255", got)
	}
}

func TestToRGBAStretchesASmallerCapture(t *testing.T) {
	l, _ := LayoutOf(infoRGBA, 32, 8)
	img, err := ToRGBA([]byte{7, 8, 9, 255}, 1, 1, 4, l, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] != 7 || img.Pix[i+3] != 255 {
			t.Fatalf("pixel %d: %v", i/4, img.Pix[i:i+4])
		}
	}
}

func TestToRGBARefusesAShortBuffer(t *testing.T) {
	l, _ := LayoutOf(infoBGRA, 32, 8)
	for _, c := range []struct {
		name              string
		n, sw, sh, stride int
		w, h              int
	}{
		{"short", 15, 2, 2, 8, 2, 2},
		{"stride under a row", 16, 2, 2, 4, 2, 2},
		{"empty source", 0, 0, 0, 0, 1, 1},
		{"empty rect", 16, 2, 2, 8, 0, 2},
	} {
		if _, err := ToRGBA(make([]byte, c.n), c.sw, c.sh, c.stride, l, c.w, c.h); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	// The last row needs only its pixels, not a whole stride.
	if _, err := ToRGBA(make([]byte, 8+16), 2, 2, 16, l, 2, 2); err != nil {
		t.Errorf("a last row without its padding: %v", err)
	}
}
