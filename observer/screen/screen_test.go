package screen

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
)

// TestScaleDownAveragesTheBlocks: each pixel of a halved image is the mean of the 2x2 block it
// covers; an image asked at its own size comes back as is.
func TestScaleDownAveragesTheBlocks(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 4, 2))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	out := mustScale(t, img, 2, 1)
	for x := range 2 {
		for c := range 4 {
			var sum int
			for _, p := range [][2]int{{2 * x, 0}, {2*x + 1, 0}, {2 * x, 1}, {2*x + 1, 1}} {
				sum += int(img.Pix[p[1]*img.Stride+p[0]*4+c])
			}
			if got := int(out.Pix[x*4+c]); got != sum/4 {
				t.Fatalf("pixel %d channel %d: %d, want the mean %d", x, c, got, sum/4)
			}
		}
	}
	if mustScale(t, img, 4, 2) != img {
		t.Fatal("an image at its own size was copied")
	}
}

// TestEncodeWithinKeepsTheLimits: the long side and the PNG's size stay within what is asked,
// the scale says how far the image was scaled, and an impossible size is BAD_REQUEST.
func TestEncodeWithinKeepsTheLimits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	img := image.NewRGBA(image.Rect(0, 0, 800, 600))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.UintN(256))
	}
	data, w, h, scale, err := EncodeWithin(context.Background(), img, 400, 1<<30)
	if err != nil || w != 400 || h != 300 || scale != 0.5 {
		t.Fatalf("max side 400: %dx%d at %v, %v", w, h, scale, err)
	}
	if got, err := png.DecodeConfig(bytes.NewReader(data)); err != nil || got.Width != w || got.Height != h {
		t.Fatalf("the PNG is %+v, %v", got, err)
	}
	full, _, _, _, err := EncodeWithin(context.Background(), img, -1, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	limit := len(full) / 3
	data, w, _, scale, err = EncodeWithin(context.Background(), img, -1, limit)
	if err != nil || len(data) > limit || scale >= 1 || w >= 800 {
		t.Fatalf("within %d bytes: %d bytes, width %d, scale %v, %v", limit, len(data), w, scale, err)
	}
	if _, _, _, _, err := EncodeWithin(context.Background(), img, -1, 10); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("within 10 bytes: %v", err)
	}
}

// TestBlankPaintsTheSecureFieldsOnly: the part of a secure field inside the capture is painted
// flat and nothing else changes; a field outside it is not counted.
func TestBlankPaintsTheSecureFieldsOnly(t *testing.T) {
	rect := model.Rect{X: 100, Y: 50, W: 200, H: 100}
	img := image.NewRGBA(image.Rect(0, 0, 200, 100))
	for i := range img.Pix {
		img.Pix[i] = 7
	}
	n := Blank(img, rect, []model.Rect{{X: 250, Y: 120, W: 100, H: 100}, {X: 0, Y: 0, W: 10, H: 10}})
	if n != 1 {
		t.Fatalf("painted %d fields, want 1", n)
	}
	for y := range 100 {
		for x := range 200 {
			inside := x >= 150 && y >= 70
			p := img.RGBAAt(x, y)
			if inside != (p == blankColour) || !inside && p.R != 7 {
				t.Fatalf("pixel (%d, %d) is %v (inside the field: %v)", x, y, p, inside)
			}
		}
	}
	if r := pixelRect(model.Rect{X: 1.5, Y: 2.2, W: 3, H: 1}); r != (model.Rect{X: 1, Y: 2, W: 4, H: 2}) {
		t.Fatalf("pixelRect: %v", r)
	}
}

func mustScale(t *testing.T, img *image.RGBA, w, h int) *image.RGBA {
	t.Helper()
	out, err := ScaleDown(context.Background(), img, w, h)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEncodeWithinStopsAtTheDeadline: a screenshot's scaling and encoding see its request's
// context: once it ends they stop with TIMEOUT instead of working on for nobody.
func TestEncodeWithinStopsAtTheDeadline(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 2560, 1600))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ScaleDown(ctx, img, 1280, 800); model.CodeOf(err) != model.CodeTimeout {
		t.Fatalf("scaling after the deadline: %v, want TIMEOUT", err)
	}
	if _, _, _, _, err := EncodeWithin(ctx, img, -1, MaxShotBytes); model.CodeOf(err) != model.CodeTimeout {
		t.Fatalf("encoding after the deadline: %v, want TIMEOUT", err)
	}
}

// A screenshot whose request's time ran out while it looked for secure fields is TIMEOUT, not
// an app that does not answer (CI saw a storm's last screenshots told APP_NOT_RESPONDING).
func TestSecureFieldsOutOfTimeIsTimeout(t *testing.T) {
	desk, err := sim.Fixture("demo")
	if err != nil {
		t.Fatal(err)
	}
	defer desk.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = secureFields(ctx, observer.New(endsWhileListing{desk, cancel}), model.Rect{W: 4000, H: 4000})
	if model.CodeOf(err) != model.CodeTimeout {
		t.Fatalf("secure fields out of time: %v, want TIMEOUT", err)
	}
}

// endsWhileListing is the sim, whose request's time runs out once it has listed an app's windows.
type endsWhileListing struct {
	*sim.Desktop
	end context.CancelFunc
}

func (b endsWhileListing) Windows(ctx context.Context, pid int) ([]model.Window, error) {
	defer b.end()
	return b.Desktop.Windows(ctx, pid)
}
