package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
)

// TestDesktopRead reads the fixture windows through NATS: their text in tree order, table cells
// joined by tabs, content scrolled out of view included, the password nowhere.
func TestDesktopRead(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3, headless.KindGTK4)
	for _, kind := range []string{headless.KindGTK3, headless.KindGTK4} {
		t.Run(kind, func(t *testing.T) {
			dd.do(t, kind, map[string]any{"cmd": "set_text", "text": "Ada Lovelace"})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			before, _ := dd.Observer.Store().Stats()
			r, err := dd.client.Read(ctx, api.ReadRequest{AppTarget: api.AppTarget{PID: dd.apps[kind].PID}})
			if err != nil {
				t.Fatal(err)
			}
			text := r.Text
			at := func(s string) int {
				i := strings.Index(text, s)
				if i < 0 {
					t.Fatalf("the text lacks %q:\n%s", s, text[:min(len(text), 600)])
				}
				return i
			}
			if !(at("Save") < at("Ada Lovelace") && at("Ada Lovelace") < at("Remember me") &&
				at("Remember me") < at("Item\tQty\tPrice\nApples\t3\t1.20\nBread\t1\t2.50") &&
				at("Row 1\n") < at("Row 150")) {
				t.Fatalf("the text is not in tree order:\n%s", text[:min(len(text), 600)])
			}
			if kind == headless.KindGTK3 { // GTK4's ListView exposes only the rows it realised
				at("Row 400")
			}
			at("Line 60 of the long text")
			if strings.Contains(text, headless.FixturePassword) {
				t.Fatal("the password was read")
			}
			if r.Truncated || r.Bytes != len(text) || r.Lines != strings.Count(text, "\n")+1 {
				t.Fatalf("truncated %v %v, %d bytes, %d lines", r.Truncated, r.Truncation, r.Bytes, r.Lines)
			}
			if after, _ := dd.Observer.Store().Stats(); after != before {
				t.Fatal("read stored a snapshot")
			}
		})
	}
	out, errOut, code := dd.cli(t, "read", "--pid", strconv.Itoa(dd.apps[headless.KindGTK3].PID), "--text")
	if code != 0 || !strings.Contains(out, "Item\tQty\tPrice") || strings.HasPrefix(out, "{") {
		t.Fatalf("axbus read --text: exit %d %s", code, errOut)
	}
}
