package screen

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"
)

// lines is a recogniser that finds the lines it was given, or fails with err, or blocks.
type lines struct {
	found []model.RecognizedLine
	err   error
	block bool
}

func (l lines) Recognize(ctx context.Context, _ []byte) ([]model.RecognizedLine, error) {
	if l.block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return append([]model.RecognizedLine(nil), l.found...), l.err
}

func line(text string, x, y, w, h float64) model.RecognizedLine {
	return model.RecognizedLine{Text: text, Confidence: 0.9, Box: model.Rect{X: x, Y: y, W: w, H: h}}
}

// TestRecognizedLinesComeInReadingOrder: rows top to bottom, left to right within a row; lines
// overlapping by less than half a height are rows of their own; boxes become fractions.
func TestRecognizedLinesComeInReadingOrder(t *testing.T) {
	got := Recognize(context.Background(), lines{found: []model.RecognizedLine{
		line("right", 120, 12, 40, 10), line("below", 10, 40, 40, 10), line("left", 10, 10, 40, 10), line("lower", 70, 17, 20, 10),
	}}, nil, 200, 100)
	var order []string
	for _, l := range got.Lines {
		order = append(order, l.Text)
	}
	if strings.Join(order, " ") != "left right lower below" {
		t.Fatalf("order: %v", order)
	}
	if b := got.Lines[0].Box; b != (model.Rect{X: 0.05, Y: 0.1, W: 0.2, H: 0.1}) || got.From != model.RecognizedFrom || got.Error != nil {
		t.Fatalf("the first line's box %v, from %q, error %v", b, got.From, got.Error)
	}
}

// TestRecognizeKeepsItsLimits: at most 300 lines and 16 KB, with the reason; a failure, a
// timeout or no recogniser is an error in the result, never the caller's.
func TestRecognizeKeepsItsLimits(t *testing.T) {
	var many []model.RecognizedLine
	for i := range 400 {
		many = append(many, line("x", 0, float64(i*20), 10, 10))
	}
	if got := Recognize(context.Background(), lines{found: many}, nil, 10, 8000); len(got.Lines) != MaxRecognizedLines || !strings.Contains(got.Truncated, "line") {
		t.Fatalf("400 lines: %d kept, truncated %q", len(got.Lines), got.Truncated)
	}
	var long []model.RecognizedLine
	for i := range 100 {
		long = append(long, line(strings.Repeat("w", 1000), 0, float64(i*20), 10, 10))
	}
	got := Recognize(context.Background(), lines{found: long}, nil, 10, 2000)
	size := 0
	for _, l := range got.Lines {
		size += len(l.Text)
	}
	if len(got.Lines) != 16 || size > MaxRecognizedBytes || !strings.Contains(got.Truncated, "byte") {
		t.Fatalf("100 KB of lines: %d kept (%d bytes), truncated %q", len(got.Lines), size, got.Truncated)
	}
	if got := Recognize(context.Background(), lines{err: model.Errorf(model.CodeInternal, "", "broken")}, nil, 1, 1); got.Error == nil || got.Error.Code != model.CodeInternal || got.Lines == nil {
		t.Fatalf("a failing recogniser: %+v", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if got := Recognize(ctx, lines{block: true}, nil, 1, 1); got.Error == nil || got.Error.Code != model.CodeTimeout {
		t.Fatalf("a recogniser past its time: %+v", got)
	}
	if got := Recognize(context.Background(), nil, nil, 1, 1); got.Error == nil || got.Error.Code != model.CodeNotSupported {
		t.Fatalf("no recogniser: %+v", got)
	}
}
