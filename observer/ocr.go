package observer

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// The limits of text recognition, each said once.
const (
	MaxRecognizedLines = 300
	MaxRecognizedBytes = 16 << 10
	RecognizeTimeout   = 8 * time.Second
)

// RecognizedFrom labels recognised text: it comes from pixels, not from the accessibility tree,
// and may be wrong.
const RecognizedFrom = "pixels (OCR): may be wrong; the accessibility tree is the source of truth"

// RecognizedText is the text recognised in an image, line by line, ordered by row then left to
// right. A failure is Error, never a failed observation.
type RecognizedText struct {
	From  string           `json:"from"`
	Lines []RecognizedLine `json:"lines"`
	// Truncated says why lines were left out (the line, byte or time limit).
	Truncated string `json:"truncated,omitempty"`
	Error     *Error `json:"error,omitempty"`
}

// RecognizedLine is one line of recognised text: its confidence (0 to 1) and its box as
// fractions of the image, from its top-left corner.
type RecognizedLine struct {
	Text       string  `json:"text"`
	Confidence float64 `json:"confidence"`
	Box        Rect    `json:"box"`
}

// TextRecognizer recognises the lines of text in a PNG, with boxes in the image's pixels.
type TextRecognizer interface {
	Recognize(ctx context.Context, png []byte) ([]RecognizedLine, error)
}

// Recognize runs r on a PNG of w x h pixels within the limits: at most RecognizeTimeout, and
// MaxRecognizedLines lines of MaxRecognizedBytes in all, the first in reading order. It never
// fails: a failure is the result's Error.
func Recognize(ctx context.Context, r TextRecognizer, png []byte, w, h int) *RecognizedText {
	out := &RecognizedText{From: RecognizedFrom, Lines: []RecognizedLine{}}
	if r == nil {
		out.Error = Errorf(CodeNotSupported, "Install Tesseract (apt-get install tesseract-ocr tesseract-ocr-eng).", "no text recognition on this machine")
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, RecognizeTimeout)
	defer cancel()
	lines, err := r.Recognize(ctx, png)
	if err != nil {
		if ctx.Err() != nil {
			out.Error = Errorf(CodeTimeout, "Recognise a smaller area (a window, a region).", "text recognition took longer than %v", RecognizeTimeout)
		} else {
			out.Error = AsError(err)
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
func OrderLines(lines []RecognizedLine) []RecognizedLine {
	slices.SortStableFunc(lines, func(a, b RecognizedLine) int { return cmp.Compare(a.Box.Y, b.Box.Y) })
	var out []RecognizedLine
	for len(lines) > 0 {
		top := lines[0].Box
		n := 1
		for n < len(lines) && sameRow(top, lines[n].Box) {
			n++
		}
		row := slices.Clone(lines[:n])
		slices.SortStableFunc(row, func(a, b RecognizedLine) int { return cmp.Compare(a.Box.X, b.Box.X) })
		out, lines = append(out, row...), lines[n:]
	}
	return out
}

func sameRow(a, b Rect) bool {
	overlap := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	return overlap >= min(a.H, b.H)/2
}

// limitLines keeps the first lines within the line and byte limits, and says why it cut.
func limitLines(lines []RecognizedLine) ([]RecognizedLine, string) {
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
		lines = []RecognizedLine{}
	}
	return lines, ""
}
