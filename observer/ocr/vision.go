package ocr

import (
	"math"
	"strings"

	"github.com/axbus/axbus/model"
)

// The platform-free half of Vision (vision_darwin.go makes the calls): its answers in the units
// a TextRecognizer promises, so that the conversion is tested on every OS.

// VisionBox is a Vision bounding box (VNRecognizedTextObservation's boundingBox: fractions of
// the image, from its BOTTOM-left corner, y growing upwards) as a box in the pixels of the w x h
// image, from its top-left corner, y growing downwards: what Tesseract answers and Recognize
// turns into fractions again. Vision's boxes may stray a little past the image's edges: they
// are clamped to it, and a NaN counts as 0.
func VisionBox(x, y, bw, bh float64, w, h int) model.Rect {
	x0, x1 := unit(min(x, x+bw)), unit(max(x, x+bw))
	y0, y1 := unit(min(y, y+bh)), unit(max(y, y+bh))
	fw, fh := float64(w), float64(h)
	return model.Rect{X: x0 * fw, Y: (1 - y1) * fh, W: (x1 - x0) * fw, H: (y1 - y0) * fh}
}

// unit is f within 0..1, NaN as 0.
func unit(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return min(max(f, 0), 1)
}

// VisionLine is one recognised text (its top candidate's string and confidence, VNConfidence
// 0..1) with its box in pixels as a RecognizedLine; false when it has no text.
func VisionLine(text string, confidence float64, box model.Rect) (model.RecognizedLine, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return model.RecognizedLine{}, false
	}
	return model.RecognizedLine{Text: text, Confidence: unit(confidence), Box: box}, true
}
