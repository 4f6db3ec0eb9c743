//go:build linux

package headless

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/fixtures/web"
	"github.com/axbus/axbus/internal/testkit"
)

func needBrowser(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(Chromium); err != nil {
		t.Fatalf("%s: %v (make deps installs chromium)", Chromium, err)
	}
}

// evalAs evaluates js in the page and decodes its value into a T.
func evalAs[T any](t *testing.T, b *Browser, js string) T {
	t.Helper()
	raw, err := b.Eval(testkit.Context(t, 10*time.Second), js)
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %s: %v", js, raw, err)
	}
	return v
}

// A browser in the session: the DOM is read and written over DevTools, the browser is in the AT-SPI
// registry, Navigate loads a 2,000-row page, and Close leaves no Chromium process behind.
func TestBrowser(t *testing.T) {
	needSession(t)
	needBrowser(t)
	s, err := Start(testkit.Context(t, 10*time.Second), WithLogger(testkit.Logger(t, slog.LevelDebug)))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Now()
	b, err := s.StartBrowser(testkit.Context(t, 60*time.Second), "page.html")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("browser pid %d up in %v, title %q", b.PID, time.Since(t0).Round(time.Millisecond), b.Title)
	if b.Title != "axbus web fixture" {
		t.Errorf("title %q", b.Title)
	}
	if got := evalAs[string](t, b, `document.getElementById('name').value = 'x'; document.getElementById('name').value`); got != "x" {
		t.Errorf("name value %q, want x", got)
	}
	if got := evalAs[int](t, b, `new Promise(r => setTimeout(() => r(42), 10))`); got != 42 {
		t.Errorf("awaited promise: %d, want 42", got)
	}
	if _, err := b.Eval(testkit.Context(t, 5*time.Second), `nope()`); err == nil || !strings.Contains(err.Error(), "nope is not defined") {
		t.Errorf("a thrown exception: %v", err)
	}
	regs, err := s.RegisteredApps(testkit.Context(t, 5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if regs[b.PID] == "" || regs[b.PID] != b.Bus {
		t.Errorf("registered apps %v: no pid %d (bus %s)", regs, b.PID, b.Bus)
	}

	t0 = time.Now()
	if err := b.Navigate(testkit.Context(t, 60*time.Second), "long.html"); err != nil {
		t.Fatal(err)
	}
	t.Logf("long.html in %v, title %q", time.Since(t0).Round(time.Millisecond), b.Title)
	if b.Title != "axbus long page (ready)" {
		t.Errorf("title %q", b.Title)
	}
	if n := evalAs[int](t, b, `document.querySelectorAll('tbody tr').length`); n != 2000 {
		t.Errorf("%d rows, want 2000", n)
	}

	procs := markedProcs(s.Dir)
	var chromium []proc
	for _, p := range procs {
		if strings.HasPrefix(p.name, "chrom") {
			chromium = append(chromium, p)
		}
	}
	t.Logf("chromium processes: %d (%s)", len(chromium), strings.Join(names(chromium), ","))
	if len(chromium) < 4 { // crash handler, browser, zygote, renderer at least: else Close would not be checked
		t.Fatalf("found %d chromium processes of the session: %s", len(chromium), strings.Join(names(chromium), ","))
	}
	t0 = time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("closed in %v", time.Since(t0).Round(time.Millisecond))
	for _, p := range chromium {
		if p.alive() {
			t.Errorf("%s (pid %d) survived Close", p.name, p.pid)
		}
	}
	if left := markedProcs(s.Dir); len(left) > 0 {
		t.Errorf("survived Close: %v", left)
	}
	if left := children(); len(left) > 0 {
		t.Errorf("children left: %v", left)
	}
	select {
	case <-b.Done():
	default:
		t.Error("Done not closed after Close")
	}
}

// Away from the source tree the pages come from the embedded copies, written into the session dir; page
// names are files of fixtures/web, absolute URLs pass as they are.
func TestPageURL(t *testing.T) {
	t.Chdir(t.TempDir())
	if d, _ := sourceDir("web", hasPages); d != "" {
		t.Fatalf("pages found at %s from a temporary dir: the test would not use the embedded copies", d)
	}
	s := &Session{Dir: t.TempDir(), state: &state{}}
	got, err := s.PageURL("page.html?add=Hello")
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(got)
	if err != nil || u.Scheme != "file" || u.Path != filepath.Join(s.Dir, "web", "page.html") || u.Query().Get("add") != "Hello" {
		t.Fatalf("url %s (%v)", got, err)
	}
	want, _ := web.FS.ReadFile("page.html")
	if b, err := os.ReadFile(u.Path); err != nil || !bytes.Equal(b, want) {
		t.Errorf("written page.html differs from the embedded one (%v)", err)
	}
	for _, p := range []string{"https://example.com/x?y", "data:text/html,<title>t</title>", "file:///tmp/x.html"} {
		if got, err := s.PageURL(p); err != nil || got != p {
			t.Errorf("%s: %s %v", p, got, err)
		}
	}
	for _, p := range []string{"nope.html", "../page.html", "sub/page.html", "/etc/passwd", "javascript:alert(1)"} {
		if got, err := s.PageURL(p); err == nil {
			t.Errorf("%s: %s, want an error", p, got)
		}
	}
}
