// Package ocr recognises text in images: Tesseract's command line, the engine Linux
// distributions package, and on macOS Apple's Vision through purego (vision_darwin.go; its box
// conversion, vision.go, is platform-free). Default picks the platform's.
package ocr

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"
)

// Tesseract runs the tesseract program on each image.
type Tesseract struct {
	path string
}

// Find is Tesseract when the program is on PATH, else nil.
func Find() *Tesseract {
	path, err := exec.LookPath("tesseract")
	if err != nil {
		return nil
	}
	return &Tesseract{path: path}
}

// Recognize reads the PNG from stdin and Tesseract's TSV of words from stdout, joined into lines.
func (t *Tesseract) Recognize(ctx context.Context, png []byte) ([]model.RecognizedLine, error) {
	cmd := exec.CommandContext(ctx, t.path, "stdin", "stdout", "-l", "eng", "--psm", "3", "tsv")
	cmd.Stdin = bytes.NewReader(png)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, model.Errorf(model.CodeInternal, "Check the Tesseract install (tesseract --list-langs lists eng).",
				"tesseract failed: %s", strings.TrimSpace(errb.String()))
		}
		return nil, err
	}
	return ParseTSV(out.Bytes())
}

// ParseTSV joins the words of Tesseract's TSV output (level 5 rows) into their lines: the words'
// text in order, the mean of their confidences (0 to 1) and the union of their boxes, in pixels.
func ParseTSV(tsv []byte) ([]model.RecognizedLine, error) {
	type key struct{ page, block, par, line int }
	var order []key
	lines := map[key]*model.RecognizedLine{}
	words := map[key]int{}
	sc := bufio.NewScanner(bytes.NewReader(tsv))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for first := true; sc.Scan(); first = false {
		f := strings.Split(sc.Text(), "\t")
		if first && len(f) > 0 && f[0] == "level" {
			continue // the header
		}
		if len(f) < 12 || f[0] != "5" {
			continue
		}
		var n [10]int
		for i := range 10 {
			v, err := strconv.Atoi(f[i])
			if err != nil {
				return nil, model.Errorf(model.CodeInternal, "Check the Tesseract version (5 writes this TSV).", "tesseract TSV: field %d of %q", i+1, sc.Text())
			}
			n[i] = v
		}
		conf, err := strconv.ParseFloat(f[10], 64)
		text := strings.TrimSpace(f[11])
		if err != nil || text == "" || conf < 0 {
			continue
		}
		k := key{n[1], n[2], n[3], n[4]}
		box := model.Rect{X: float64(n[6]), Y: float64(n[7]), W: float64(n[8]), H: float64(n[9])}
		l, ok := lines[k]
		if !ok {
			l = &model.RecognizedLine{Box: box}
			lines[k] = l
			order = append(order, k)
		} else {
			l.Text += " "
			l.Box = union(l.Box, box)
		}
		l.Text += text
		l.Confidence += conf / 100
		words[k]++
	}
	out := make([]model.RecognizedLine, 0, len(order))
	for _, k := range order {
		l := lines[k]
		l.Confidence /= float64(words[k])
		out = append(out, *l)
	}
	return out, sc.Err()
}

func union(a, b model.Rect) model.Rect {
	x, y := min(a.X, b.X), min(a.Y, b.Y)
	return model.Rect{X: x, Y: y, W: max(a.X+a.W, b.X+b.W) - x, H: max(a.Y+a.H, b.Y+b.H) - y}
}
