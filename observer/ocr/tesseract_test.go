package ocr

import (
	"math"
	"testing"

	"github.com/axbus/axbus/model"
)

const sample = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
	"1\t1\t0\t0\t0\t0\t0\t0\t800\t700\t-1\t\n" +
	"4\t1\t1\t1\t1\t0\t30\t24\t70\t12\t-1\t\n" +
	"5\t1\t1\t1\t1\t1\t30\t24\t30\t12\t96.0\tSave\n" +
	"5\t1\t1\t1\t1\t2\t64\t22\t36\t14\t90.0\tfile\n" +
	"5\t1\t1\t1\t1\t3\t110\t22\t10\t10\t-1\t \n" +
	"5\t1\t2\t1\t1\t1\t300\t100\t40\t12\t80.0\tRow\n" +
	"5\t1\t2\t1\t1\t2\t345\t100\t10\t12\t70.0\t1\n"

// TestParseTSVJoinsWordsIntoLines: a line's words in order, the mean confidence, the union of
// the boxes; empty words and other levels are left out.
func TestParseTSVJoinsWordsIntoLines(t *testing.T) {
	got, err := ParseTSV([]byte(sample))
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %+v", err, got)
	}
	if got[0].Text != "Save file" || got[0].Box != (model.Rect{X: 30, Y: 22, W: 70, H: 14}) || math.Abs(got[0].Confidence-0.93) > 1e-9 {
		t.Fatalf("the first line: %+v", got[0])
	}
	if got[1].Text != "Row 1" || math.Abs(got[1].Confidence-0.75) > 1e-9 {
		t.Fatalf("the second line: %+v", got[1])
	}
	if _, err := ParseTSV([]byte("5\t1\t1\t1\t1\t1\tx\t24\t30\t12\t96.0\tSave\n")); err == nil {
		t.Fatal("a row with a bad number parsed")
	}
}

// FuzzParseTSV: any input parses or fails, never panics; lines have text and confidences in
// [0, 1] when the words' are in [0, 100].
func FuzzParseTSV(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t100\ta\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		lines, err := ParseTSV(b)
		if err != nil {
			return
		}
		for _, l := range lines {
			if l.Text == "" {
				t.Fatalf("a line without text: %+v", l)
			}
		}
	})
}
