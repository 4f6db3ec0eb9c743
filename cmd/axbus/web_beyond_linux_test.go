package main

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
)

// TestBeyondTreeOnChromium: screenshots, windows and the clipboard on a real browser. A
// screenshot of Chromium's window is a PNG of its size where OCR finds "Open dialog" inside
// that button's bounds and the password field is one flat colour; move and resize are seen by
// xwininfo; text put on the clipboard is what Chromium pastes (its DOM the witness); 70 KB
// typed into a textarea go by the paste fallback, and the clipboard holds again what xclip put
// there before.
func TestBeyondTreeOnChromium(t *testing.T) {
	dd := startWebDaemon(t, "page.html")
	pid := strconv.Itoa(dd.browser.PID)

	t.Run("screenshot, OCR, the password field blank", func(t *testing.T) {
		insp := dd.page(t)
		// Tesseract misses the small Save button in Chromium's rendering; "Open dialog" it reads.
		save, secret := byID(t, insp, "open-dialog"), byID(t, insp, "password")
		if save.Bounds == nil || secret.Bounds == nil || !secret.Secure {
			t.Fatalf("Save %+v, password %+v", save, secret)
		}
		r, img := dd.screenshotOf(t, dd.browser.PID)
		win := r.Bounds
		if img.Bounds().Dx() != int(win.W*r.Scale+0.5) || img.Bounds().Dy() != int(win.H*r.Scale+0.5) || r.Blanked < 1 {
			t.Fatalf("a %v image at scale %v of the window %v, %d blanked", img.Bounds().Size(), r.Scale, win, r.Blanked)
		}
		sb := *secret.Bounds
		first := img.At(int((sb.X-win.X)*r.Scale), int((sb.Y-win.Y)*r.Scale))
		for y := sb.Y; y < sb.Y+sb.H; y++ {
			for x := sb.X; x < sb.X+sb.W; x++ {
				if img.At(int((x-win.X)*r.Scale), int((y-win.Y)*r.Scale)) != first {
					t.Fatalf("the password field's area is not blank at (%v, %v)", x, y)
				}
			}
		}
		textIn(t, "Chromium's screenshot", "Open dialog", r.RecognizedText, win, r.Width, r.Height, r.Scale, *save.Bounds)
	})

	t.Run("window move, resize, minimize, raise", func(t *testing.T) {
		window := func(args ...string) api.WindowReply { t.Helper(); return dd.windowOp(t, dd.browser.PID, args...) }
		r := window("move", "--to", "40,30")
		title := r.Before.Title
		geometry := func() string {
			t.Helper()
			out, err := dd.x11(t, "", "xwininfo", "-name", title)
			if err != nil {
				t.Fatalf("xwininfo -name %q: %v", title, err)
			}
			var parts []string
			for _, f := range []string{"Absolute upper-left X", "Absolute upper-left Y", "Width", "Height", "Map State"} {
				m := regexp.MustCompile(f + `:\s+(\S+)`).FindStringSubmatch(out)
				if m == nil {
					t.Fatalf("xwininfo says no %s: %s", f, out)
				}
				parts = append(parts, m[1])
			}
			return strings.Join(parts, " ")
		}
		if g := geometry(); !strings.HasPrefix(g, "40 30 ") {
			t.Fatalf("moved to (40, 30): xwininfo says %s", g)
		}
		window("resize", "--size", "900x640")
		if g := geometry(); g != "40 30 900 640 IsViewable" {
			t.Fatalf("resized to 900x640: xwininfo says %s", g)
		}
		if w := window("minimize"); !w.After.Minimized || !strings.HasSuffix(geometry(), "IsUnMapped") {
			t.Fatalf("minimize: after %+v, xwininfo %s", w.After, geometry())
		}
		if w := window("raise"); w.After.Minimized || !w.After.Focused || !strings.HasSuffix(geometry(), "IsViewable") {
			t.Fatalf("raise: after %+v, xwininfo %s", w.After, geometry())
		}
	})

	t.Run("clipboard set, Chromium pastes it", func(t *testing.T) {
		const text = "Grüße aus axbus ✓ 日本語"
		if _, errOut, code := dd.cli(t, "clipboard", "set", text); code != 0 {
			t.Fatalf("clipboard set: exit %d %s", code, errOut)
		}
		dd.dom(t, `(document.getElementById('name').value = '', 'ok')`)
		dd.mustWebAct(t, "focus", "name", api.ActionRequest{Policy: "physical"})
		if _, errOut, code := dd.cli(t, "key", "ctrl+v", "--pid", pid, "--policy", "physical"); code != 0 {
			t.Fatalf("key ctrl+v: exit %d %s", code, errOut)
		}
		dd.domEventually(t, `document.getElementById('name').value`, text)
	})

	t.Run("type past 64 KiB: pasted, the clipboard put back", func(t *testing.T) {
		const kept = "what the user copied: ½ ∞"
		if _, err := dd.x11(t, kept, "xclip", "-i", "-selection", "clipboard"); err != nil {
			t.Fatal(err)
		}
		long := strings.Repeat("0123456789abcdef", 70000/16) + "✓"
		dd.dom(t, `(document.getElementById('notes').value = '', 'ok')`)
		r := dd.mustWebAct(t, "type", "notes", api.ActionRequest{Text: long, Policy: "physical"})
		if r.Step != "physical focus, ctrl+End, paste" || r.Mechanism != "physical" {
			t.Fatalf("type: step %q, mechanism %q; trace %+v", r.Step, r.Mechanism, r.Trace)
		}
		dd.domEventually(t, `String(document.getElementById('notes').value.length)`, strconv.Itoa(len([]rune(long))))
		if got := dd.dom(t, `document.getElementById('notes').value`); got != long {
			t.Fatalf("the textarea holds %d bytes, not the text typed", len(got))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if got, err := dd.client.Clipboard(ctx, api.ClipboardRequest{Op: "get"}); err != nil || got.Text != kept {
			t.Fatalf("the clipboard after the paste: %+v %v, want %q back", got, err, kept)
		}
		if got, err := dd.x11(t, "", "xclip", "-o", "-selection", "clipboard"); err != nil || got != kept {
			t.Fatalf("xclip reads %q (%v) after the paste, want %q back", got, err, kept)
		}
	})
}
