package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"syscall"
)

// Chromium is the browser StartBrowser runs (Debian's chromium).
var Chromium = "/usr/bin/chromium"

// Browser is one running Chromium, started by Session.StartBrowser with accessibility on and the DevTools
// protocol on a pipe. Eval is the tests' independent observer of the page: it reads the DOM, never the
// accessibility tree. Its fields are read-only; Navigate changes Title, so it must not run concurrently with
// readers of Title.
type Browser struct {
	PID   int    // the browser process (its zygotes and renderers are its descendants)
	Log   string // Chromium's output, removed with the session
	Bus   string // its name on the accessibility bus
	Title string // the page's document.title when StartBrowser (or the last Navigate) returned

	proc    *child
	cdp     *cdp
	session string // the DevTools session of the page target
	noTree  bool   // started with --disable-renderer-accessibility: no document web to wait for
	s       *Session
}

// Eval evaluates a JavaScript expression in the page (awaiting it if it is a promise) and returns its value
// as JSON (null for undefined). An exception the expression throws is an error.
func (b *Browser) Eval(ctx context.Context, js string) (json.RawMessage, error) {
	v, err := b.cdp.evaluate(ctx, b.session, js)
	if err != nil {
		return nil, fmt.Errorf("headless: browser %d: %w", b.PID, err)
	}
	return v, nil
}

// Navigate opens page (as StartBrowser takes it) in the browser's tab and returns once it has loaded and its
// document web, named after its title, is in the accessibility tree (unless the browser's accessibility is off).
func (b *Browser) Navigate(ctx context.Context, page string) error {
	return b.s.navigate(ctx, b, page)
}

// Kill ends the browser and all its processes with SIGKILL (its process group: Chromium's zygotes and
// renderers would otherwise outlive it for a while).
func (b *Browser) Kill() error {
	if b.proc.exited() {
		return fmt.Errorf("headless: %s (pid %d) has exited", b.proc.name, b.PID)
	}
	if err := syscall.Kill(-b.PID, syscall.SIGKILL); err != nil {
		return fmt.Errorf("headless: browser %d: %w", b.PID, err)
	}
	return nil
}

// Wait waits for the browser to exit and returns how it ended (nil for exit status 0, an *exec.ExitError
// else). It may be called any number of times.
func (b *Browser) Wait() error {
	<-b.proc.done
	return b.proc.err
}

// Done is closed when the browser has exited.
func (b *Browser) Done() <-chan struct{} { return b.proc.done }

// isURL reports whether page is an absolute URL of a scheme StartBrowser opens as it is.
func isURL(page string) bool {
	u, err := url.Parse(page)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "file", "data":
		return true
	}
	return false
}

// Screenshot is a PNG of the page as it shows now (DevTools' Page.captureScreenshot).
func (b *Browser) Screenshot(ctx context.Context) ([]byte, error) {
	var r struct {
		Data []byte `json:"data"` // base64 in the JSON
	}
	if err := b.cdp.call(ctx, b.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		return nil, fmt.Errorf("headless: browser %d: %w", b.PID, err)
	}
	return r.Data, nil
}

// HeapUsed is the page's JavaScript heap in use, in bytes (DevTools' Runtime.getHeapUsage).
func (b *Browser) HeapUsed(ctx context.Context) (float64, error) {
	var r struct {
		UsedSize float64 `json:"usedSize"`
	}
	if err := b.cdp.call(ctx, b.session, "Runtime.getHeapUsage", map[string]any{}, &r); err != nil {
		return 0, fmt.Errorf("headless: browser %d: %w", b.PID, err)
	}
	return r.UsedSize, nil
}
