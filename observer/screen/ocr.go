package screen

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// The limits of text recognition, each said once.
const (
	MaxRecognizedLines = 300
	MaxRecognizedBytes = 16 << 10
	RecognizeTimeout   = 8 * time.Second
)

// Recognize runs r on a PNG of w x h pixels within the limits: at most RecognizeTimeout, and
// MaxRecognizedLines lines of MaxRecognizedBytes in all, the first in reading order. It never
// fails: a failure is the result's Error.
func Recognize(ctx context.Context, r observer.TextRecognizer, png []byte, w, h int) *model.RecognizedText {
	out := &model.RecognizedText{From: model.RecognizedFrom, Lines: []model.RecognizedLine{}}
	if r == nil {
		out.Error = model.Errorf(model.CodeNotSupported, "Install Tesseract (apt-get install tesseract-ocr tesseract-ocr-eng).",
			"no text recognition on this machine")
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, RecognizeTimeout)
	defer cancel()
	lines, err := r.Recognize(ctx, png)
	if err != nil {
		if ctx.Err() != nil {
			out.Error = model.Errorf(model.CodeTimeout, "Recognise a smaller area (a window, a region).",
				"text recognition took longer than %v", RecognizeTimeout)
		} else {
			out.Error = model.AsError(err)
		}
		return out
	}
	out.Lines, out.Truncated = limitLines(OrderLines(lines))
	for i := range out.Lines {
		b := &out.Lines[i].Box
		b.X, b.Y, b.W, b.H = b.X/float64(w), b.Y/float64(h), b.W/float64(w), b.H/float64(h)
	}
	return out
}

// OrderLines sorts lines by row, then left to right: two lines are in one row when they
// overlap vertically by half the lower one's height or more.
func OrderLines(lines []model.RecognizedLine) []model.RecognizedLine {
	slices.SortStableFunc(lines, func(a, b model.RecognizedLine) int { return cmp.Compare(a.Box.Y, b.Box.Y) })
	var out []model.RecognizedLine
	for len(lines) > 0 {
		top := lines[0].Box
		n := 1
		for n < len(lines) && sameRow(top, lines[n].Box) {
			n++
		}
		row := slices.Clone(lines[:n])
		slices.SortStableFunc(row, func(a, b model.RecognizedLine) int { return cmp.Compare(a.Box.X, b.Box.X) })
		out, lines = append(out, row...), lines[n:]
	}
	return out
}

func sameRow(a, b model.Rect) bool {
	overlap := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	return overlap >= min(a.H, b.H)/2
}

// limitLines keeps the first lines within the line and byte limits, and says why it cut.
func limitLines(lines []model.RecognizedLine) ([]model.RecognizedLine, string) {
	size := 0
	for i, l := range lines {
		if i == MaxRecognizedLines {
			return lines[:i], "line limit (300)"
		}
		if size += len(l.Text); size > MaxRecognizedBytes {
			return lines[:i], "byte limit (16 KB)"
		}
	}
	if lines == nil {
		lines = []model.RecognizedLine{}
	}
	return lines, ""
}
