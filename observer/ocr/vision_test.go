package ocr

import (
	"context"
	"math"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer/screen"
)

func near(a, b model.Rect) bool {
	const eps = 1e-9
	return math.Abs(a.X-b.X) < eps && math.Abs(a.Y-b.Y) < eps && math.Abs(a.W-b.W) < eps && math.Abs(a.H-b.H) < eps
}

// TestVisionBoxTurnsBottomLeftFractionsIntoTopLeftPixels: Vision's y grows upwards from the
// bottom edge, a TextRecognizer's downwards from the top, in pixels.
func TestVisionBoxTurnsBottomLeftFractionsIntoTopLeftPixels(t *testing.T) {
	const w, h = 800, 600
	for _, c := range []struct {
		name         string
		x, y, bw, bh float64
		want         model.Rect
	}{
		{"the whole image", 0, 0, 1, 1, model.Rect{X: 0, Y: 0, W: 800, H: 600}},
		{"the bottom-left corner", 0, 0, 0.25, 0.1, model.Rect{X: 0, Y: 540, W: 200, H: 60}},
		{"the top-left corner", 0, 0.9, 0.25, 0.1, model.Rect{X: 0, Y: 0, W: 200, H: 60}},
		{"the top-right corner", 0.75, 0.9, 0.25, 0.1, model.Rect{X: 600, Y: 0, W: 200, H: 60}},
		{"the bottom-right corner", 0.75, 0, 0.25, 0.1, model.Rect{X: 600, Y: 540, W: 200, H: 60}},
		{"a line in the middle", 0.1, 0.5, 0.5, 0.05, model.Rect{X: 80, Y: 270, W: 400, H: 30}},
		{"a little past the left and bottom edges", -0.01, -0.02, 0.26, 0.12, model.Rect{X: 0, Y: 540, W: 200, H: 60}},
		{"a little past the right and top edges", 0.75, 0.9, 0.26, 0.11, model.Rect{X: 600, Y: 0, W: 200, H: 60}},
		{"wholly outside", 1.2, 1.5, 0.1, 0.1, model.Rect{X: 800, Y: 0, W: 0, H: 0}},
		{"a negative size", 0.25, 0.1, -0.25, -0.1, model.Rect{X: 0, Y: 540, W: 200, H: 60}},
		{"NaN", math.NaN(), 0, 0.5, math.NaN(), model.Rect{X: 0, Y: 600, W: 0, H: 0}},
	} {
		if got := VisionBox(c.x, c.y, c.bw, c.bh, w, h); !near(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestVisionBoxRoundTripsThroughRecognize: Recognize divides the pixels by the image's size
// again, giving fractions from the top-left corner.
func TestVisionBoxRoundTripsThroughRecognize(t *testing.T) {
	box := VisionBox(0.2, 0.7, 0.3, 0.1, 1000, 500)
	got := screen.Recognize(t.Context(), fixed{{Text: "Hello", Confidence: 0.9, Box: box}}, nil, 1000, 500)
	if got.Error != nil || len(got.Lines) != 1 {
		t.Fatalf("%+v", got)
	}
	if want := (model.Rect{X: 0.2, Y: 0.2, W: 0.3, H: 0.1}); !near(got.Lines[0].Box, want) {
		t.Errorf("%+v, want %+v", got.Lines[0].Box, want)
	}
}

type fixed []model.RecognizedLine

func (f fixed) Recognize(context.Context, []byte) ([]model.RecognizedLine, error) { return f, nil }

func TestVisionLine(t *testing.T) {
	box := model.Rect{X: 1, Y: 2, W: 3, H: 4}
	if l, ok := VisionLine("  Save file ", 0.5, box); !ok || l.Text != "Save file" || l.Confidence != 0.5 || l.Box != box {
		t.Errorf("%+v %v", l, ok)
	}
	if _, ok := VisionLine(" \n", 1, box); ok {
		t.Error("a blank line was kept")
	}
	if l, _ := VisionLine("x", 1.5, box); l.Confidence != 1 {
		t.Errorf("confidence %v, want it clamped to 1", l.Confidence)
	}
}
