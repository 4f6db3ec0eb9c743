package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// TestScreenshotOfGTK3: `axbus screenshot --app ... --ocr` of the GTK3 fixture's window, through
// NATS: a PNG of the window's size; Tesseract finds "Save" with its box's centre inside the Save
// button's bounds (as the accessibility tree says them); the password entry, typed into, is one
// flat colour in the image.
func TestScreenshotOfGTK3(t *testing.T) {
	const kind = headless.KindGTK3
	dd := startDesktopDaemon(t, kind)
	app := dd.apps[kind]
	before := dd.state(t, kind).PasswordLen
	dd.do(t, kind, map[string]any{"cmd": "type_password", "text": "hunter2", "interval_ms": 1})
	dd.eventually(t, kind, "the password was not typed", func(s headless.State) bool { return s.PasswordLen == before+7 })
	insp, err := dd.client.Inspect(context.Background(), api.InspectRequest{AppTarget: api.AppTarget{PID: app.PID}})
	if err != nil {
		t.Fatal(err)
	}
	save, secret := find(insp, model.RoleButton, "Save"), secureElement(insp)
	if save == nil || save.Bounds == nil || secret == nil || secret.Bounds == nil {
		t.Fatalf("the fixture lacks Save or the password entry, with bounds: %+v %+v", save, secret)
	}

	r, img := dd.screenshotOf(t, app.PID)
	win := r.Bounds
	if r.Scale != 1 || img.Bounds().Dx() != int(win.W) || img.Bounds().Dy() != int(win.H) || r.Blanked != 1 {
		t.Fatalf("a %v image at scale %v of the window %v, %d blanked", img.Bounds().Size(), r.Scale, win, r.Blanked)
	}
	t.Logf("%dx%d PNG, %d bytes; OCR: %d lines", r.Width, r.Height, r.Bytes, len(r.RecognizedText.Lines))

	// The password entry's area: one flat colour, whatever it showed.
	at := func(x, y float64) [4]uint32 {
		c := img.At(int(x-win.X), int(y-win.Y))
		r, g, b, a := c.RGBA()
		return [4]uint32{r, g, b, a}
	}
	sb := secret.Bounds
	first := at(sb.X, sb.Y)
	for y := sb.Y; y < sb.Y+sb.H; y++ {
		for x := sb.X; x < sb.X+sb.W; x++ {
			if at(x, y) != first {
				t.Fatalf("the password entry's area is not blank at (%v, %v)", x, y)
			}
		}
	}

	// OCR, of the screenshot and of an inspection: "Save" where the tree says the button is.
	textIn(t, "the screenshot", "Save", r.RecognizedText, win, r.Width, r.Height, r.Scale, *save.Bounds)
	out, errOut, code := dd.cli(t, "inspect", "--pid", strconv.Itoa(app.PID), "--ocr", "--json")
	if code != 0 {
		t.Fatalf("inspect --ocr: exit %d %s%s", code, out, errOut)
	}
	testdaemon.MustMatch(t, "inspect.reply", []byte(out))
	textIn(t, "the inspection", "Save", testdaemon.Decode[model.Inspection](t, out).RecognizedText, win, r.Width, r.Height, r.Scale, *save.Bounds)
}

// screenshotOf takes a screenshot of app pid's window with OCR through the CLI, checks the
// reply against its schema, and decodes the PNG file it wrote.
func (dd *desktopDaemon) screenshotOf(t *testing.T, pid int) (screenshotResult, image.Image) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "shot.png")
	out, errOut, code := dd.cli(t, "screenshot", "--pid", strconv.Itoa(pid), "-o", file, "--ocr", "--json")
	if code != 0 {
		t.Fatalf("screenshot: exit %d %s%s", code, out, errOut)
	}
	var reply map[string]any
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatal(err)
	}
	delete(reply, "file") // the CLI's own
	wire, _ := json.Marshal(reply)
	testdaemon.MustMatch(t, "screenshot.reply", wire)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the file is no PNG: %v", err)
	}
	return testdaemon.Decode[screenshotResult](t, out), img
}

// textIn fails unless rt has a line with text whose box's centre, mapped from an image of w x
// h at scale of the area bounds, lies in the element's bounds el.
func textIn(t *testing.T, what, text string, rt *model.RecognizedText, bounds model.Rect, w, h int, scale float64, el model.Rect) {
	t.Helper()
	if rt == nil || rt.Error != nil || rt.From != model.RecognizedFrom {
		t.Fatalf("%s: recognized_text %+v", what, rt)
	}
	var saw []string
	for _, l := range rt.Lines {
		saw = append(saw, l.Text)
		if !strings.Contains(l.Text, text) {
			continue
		}
		cx := bounds.X + (l.Box.X+l.Box.W/2)*float64(w)/scale
		cy := bounds.Y + (l.Box.Y+l.Box.H/2)*float64(h)/scale
		if cx >= el.X && cx <= el.X+el.W && cy >= el.Y && cy <= el.Y+el.H {
			return
		}
		t.Logf("%s: %q at (%.0f, %.0f), outside the element's %v", what, l.Text, cx, cy, el)
	}
	t.Fatalf("%s: OCR found no %q in the element's bounds %v; lines: %q", what, text, el, saw)
}

func secureElement(insp *model.Inspection) *model.Element {
	for i := range insp.Elements {
		if insp.Elements[i].Secure {
			return &insp.Elements[i]
		}
	}
	return nil
}
