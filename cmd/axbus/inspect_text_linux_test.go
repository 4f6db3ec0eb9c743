package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/headless"
)

// TestInspectTextOnGTK3: `axbus inspect --ocr` of the GTK3 fixture on a terminal, the text an MCP
// inspect returns too. A disabled button says disabled and the enabled ones do not; no line
// spends bytes on a state every listed element has, nor is an unnamed layout box (the header
// counts them folded); the text recognised from pixels follows the elements, "Save" where the
// tree says the Save button is.
func TestInspectTextOnGTK3(t *testing.T) {
	const kind = headless.KindGTK3
	dd := startDesktopDaemon(t, kind)
	pid := strconv.Itoa(dd.apps[kind].PID)
	dd.do(t, kind, map[string]any{"cmd": "add_button", "label": "Later", "sensitive": false})
	dd.do(t, kind, map[string]any{"cmd": "add_button", "label": "Apply"})
	if out, errOut, code := dd.cli(t, "wait", "element:role=button,name=Later", "--pid", pid); code != 0 {
		t.Fatalf("wait for the added button: exit %d %s%s", code, out, errOut)
	}

	lines := dd.OnTTY(t, run, "inspect", "--pid", pid, "--ocr")
	if len(lines) < 2 {
		t.Fatalf("inspect on a terminal: %q", lines)
	}
	element := regexp.MustCompile(`^ *e\d+ [a-z_]+`)
	recognized := regexp.MustCompile(`^  ("(?:[^"\\]|\\.)*") at ([0-9.]+),([0-9.]+) ([0-9.]+)x([0-9.]+)$`)
	button := map[string]string{} // the states of each button, by its name
	var ocr []string
	elements, bytes := 0, 0
	for i, l := range lines[1:] {
		if strings.HasPrefix(l, "text from pixels") {
			ocr = lines[i+2:]
			break
		}
		if !element.MatchString(l) {
			t.Fatalf("not an element line: %q", l)
		}
		elements, bytes = elements+1, bytes+len(l)+1
		for _, noise := range []string{"visible", "showing", "enabled", "focusable", "sensitive"} {
			if strings.Contains(l, noise) {
				t.Errorf("%q says %s", l, noise)
			}
		}
		if strings.HasSuffix(l, " filler") {
			t.Errorf("%q: an unnamed layout box", l)
		}
		if m := regexp.MustCompile(` button "([^"]*)"(?: \[([a-z_,]*)\])?$`).FindStringSubmatch(l); m != nil {
			button[m[1]] = m[2]
		}
	}
	t.Logf("%s; %d element lines, %d bytes: %.1f bytes a line", lines[0], elements, bytes, float64(bytes)/float64(elements))
	if button["Later"] != "disabled" || strings.Contains(button["Apply"], "disabled") || strings.Contains(button["Save"], "disabled") {
		t.Fatalf("buttons and their states: %q\n%s", button, strings.Join(lines, "\n"))
	}
	header := regexp.MustCompile(`^snapshot s_[0-9a-f]{12}: axbus-fixture-gtk3 \(pid \d+\), window "axbus fixture \(GTK3\)": (\d+) elements, (\d+) folded`)
	h := header.FindStringSubmatch(lines[0])
	if h == nil {
		t.Fatalf("header %q", lines[0])
	}
	if total, _ := strconv.Atoi(h[1]); h[2] == "0" || strconv.Itoa(total-elements) != h[2] {
		t.Errorf("%d element lines for %d elements, %s folded", elements, total, h[2])
	}

	// "Save" among the recognised lines, its box (fractions of the window) on the Save button.
	insp := dd.inspect(t, kind)
	win, save := insp.Elements[0].Bounds, find(insp, model.RoleButton, "Save")
	if win == nil || save == nil || save.Bounds == nil {
		t.Fatalf("no window bounds or Save button with bounds: %+v %+v", win, save)
	}
	for _, l := range ocr {
		m := recognized.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a recognised line: %q", l)
		}
		text, _ := strconv.Unquote(m[1])
		var box [4]float64
		for i := range box {
			box[i], _ = strconv.ParseFloat(m[2+i], 64)
		}
		x, y := win.X+(box[0]+box[2]/2)*win.W, win.Y+(box[1]+box[3]/2)*win.H
		if strings.Contains(text, "Save") && x >= save.Bounds.X && x <= save.Bounds.X+save.Bounds.W && y >= save.Bounds.Y && y <= save.Bounds.Y+save.Bounds.H {
			return
		}
	}
	t.Fatalf("no recognised \"Save\" on the button %v:\n%s", *save.Bounds, strings.Join(lines, "\n"))
}
