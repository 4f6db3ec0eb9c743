//go:build linux

package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/internal/pace"
	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/fixtures/web"
)

const (
	browserCap      = 60 * time.Second // Chromium on 2 cores and software rendering takes seconds
	roleDocumentWeb = 95               // ATSPI_ROLE_DOCUMENT_WEB
	docDepth        = 10               // the document web is ~6 levels under the app (frame, panels)
	docMaxNodes     = 3000             // the browser's own UI is a few hundred; never walk a page
	pagePoll        = 20 * time.Millisecond
)

// disableA11y are the switches that make StartBrowser leave accessibility off.
var disableA11y = []string{"--disable-renderer-accessibility", "--disable-platform-accessibility-integration"}

// StartBrowser starts Chromium in the session on page, with accessibility forced on and the DevTools
// protocol on a pipe, and returns once the browser is in the AT-SPI registry, the page has loaded
// (document.readyState "complete") and its document web, named after its title, is in the accessibility tree.
// page is a file of fixtures/web with an optional query ("page.html?add=Hello") or an absolute http:, https:,
// file: or data: URL. args go to Chromium after the standard switches and before the URL: a switch given again
// there wins (a later --disable-features replaces the earlier one).
//
// With --disable-renderer-accessibility or --disable-platform-accessibility-integration in args,
// --force-renderer-accessibility is left out and StartBrowser does not wait for the document web. Chromium
// 156 then registers its app and window but builds no tree under the window until an assistive technology
// reads an element's attributes (Accessible.GetAttributes, as axbus does); with
// --disable-platform-accessibility-integration it builds none whatever reads it: the way to have a browser
// whose accessibility is off.
func (s *Session) StartBrowser(ctx context.Context, page string, args ...string) (_ *Browser, err error) {
	if _, err := os.Stat(Chromium); err != nil {
		return nil, missingPackages("a browser needs", []string{"chromium"})
	}
	target, err := s.PageURL(page)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, browserCap)
	defer cancel()
	t0 := time.Now()
	name, err := s.nextName("chromium")
	if err != nil {
		return nil, err
	}
	profile := filepath.Join(s.Dir, name)
	if err := os.Mkdir(profile, 0o700); err != nil {
		return nil, fmt.Errorf("headless: %w", err)
	}

	// fd 3: Chromium reads requests; fd 4: it writes replies.
	toR, toW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("headless: %w", err)
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		toR.Close()
		toW.Close()
		return nil, fmt.Errorf("headless: %w", err)
	}
	a11y := !slices.ContainsFunc(args, func(a string) bool { return slices.Contains(disableA11y, a) })
	cmd := exec.Command(Chromium, append(append(chromiumArgs(profile, a11y), args...), target)...)
	// Chromium's crash handler keeps its reports in the default profile's dir, ~/.config/chromium: this keeps
	// them in the session.
	cmd.Env = append(s.Env(), "XDG_CONFIG_HOME="+profile)
	cmd.ExtraFiles = []*os.File{toR, fromW}
	dev := newCDP(toW, fromR)
	c, logPath, err := s.spawn("chromium", name, cmd, syscall.SIGKILL, dev.done)
	toR.Close()
	fromW.Close()
	if err != nil {
		dev.close()
		return nil, err
	}
	b := &Browser{PID: cmd.Process.Pid, Log: logPath, proc: c, cdp: dev, s: s}
	s.mu.Lock()
	s.browsers = append(s.browsers, b)
	closed := s.closed
	s.mu.Unlock()
	defer func() {
		if err != nil {
			b.end()
		}
	}()
	if closed {
		return nil, errClosed
	}
	fail := func(what string, err error) error {
		select {
		case <-c.done:
			what += fmt.Sprintf(" (chromium exited: %v)", c.err)
		default:
		}
		return fmt.Errorf("headless: chromium %d: %s: %w%s", b.PID, what, err, logTail(logPath))
	}

	if b.Bus, err = s.WaitRegistered(ctx, b.PID, true); err != nil {
		return nil, fail("not in the AT-SPI registry", err)
	}
	tReg := time.Since(t0)
	err = backoff.Retry(func() error {
		var err error
		if b.session, err = dev.attachPage(ctx); errors.Is(err, errNoPage) {
			return err
		}
		return backoff.Permanent(err)
	}, pace.Every(ctx, pagePoll, 0))
	if err != nil {
		return nil, fail("no DevTools page target", err)
	}
	if b.Title, err = b.waitLoaded(ctx, `location.href != "about:blank"`); err != nil {
		return nil, fail("page "+target+" did not load", err)
	}
	tLoad := time.Since(t0)
	if !a11y {
		b.noTree = true
	} else if err := s.waitDocument(ctx, b); err != nil {
		return nil, fail("no document web in the accessibility tree", err)
	}
	s.log.Debug("headless: browser up", "pid", b.PID, "page", target, "title", b.Title,
		"registered", tReg.Round(time.Millisecond), "loaded", tLoad.Round(time.Millisecond),
		"tree", time.Since(t0).Round(time.Millisecond))
	return b, nil
}

// chromiumArgs are the switches of every browser: no first-run UI, no network chatter (the machines are
// offline), accessibility forced on, DevTools on fds 3 and 4.
func chromiumArgs(profile string, a11y bool) []string {
	var a []string
	if os.Geteuid() == 0 {
		a = append(a, "--no-sandbox") // Chromium refuses to run as root with its sandbox
	}
	if a11y {
		a = append(a, "--force-renderer-accessibility")
	}
	return append(a, "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-dev-shm-usage",
		"--user-data-dir="+profile,
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--disable-features=Translate,MediaRouter", "--window-position=0,0", "--window-size=1000,800",
		"--remote-debugging-pipe")
}

// PageURL turns a page of fixtures/web ("long.html", "page.html?add=Hi") into its file: URL; absolute URLs
// pass as they are.
func (s *Session) PageURL(page string) (string, error) {
	if isURL(page) {
		return page, nil
	}
	file, query, _ := strings.Cut(page, "?")
	if !fs.ValidPath(file) || strings.Contains(file, "/") {
		return "", fmt.Errorf("headless: page %q: not a file of fixtures/web nor an absolute URL", page)
	}
	dir, err := s.webDir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, file)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("headless: page %q: %w", page, err)
	}
	return (&url.URL{Scheme: "file", Path: p, RawQuery: query}).String(), nil
}

// webDir is where the pages are: the source tree's fixtures/web, else copies of the embedded ones written into
// DIR/web.
func (s *Session) webDir() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.web != "" {
		return s.web, nil
	}
	if d, _ := sourceDir("web", hasPages); d != "" {
		s.web = d
		return d, nil
	}
	d := filepath.Join(s.Dir, "web")
	if err := writeEmbedded(web.FS, d); err != nil {
		return "", fmt.Errorf("headless: embedded pages: %w", err)
	}
	s.web = d
	return d, nil
}

func hasPages(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "page.html"))
	return err == nil
}

// navigate is Browser.Navigate.
func (s *Session) navigate(ctx context.Context, b *Browser, page string) error {
	target, err := s.PageURL(page)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, browserCap)
	defer cancel()
	t0 := time.Now()
	fail := func(what string, err error) error {
		return fmt.Errorf("headless: chromium %d: %s %s: %w%s", b.PID, what, target, err, logTail(b.Log))
	}
	// Marks the old document, so that its readyState is not taken for the new one's.
	if _, err := b.Eval(ctx, "window.__axbusLeaving = true"); err != nil {
		return fail("navigate to", err)
	}
	var nav struct {
		LoaderID  string `json:"loaderId"`
		ErrorText string `json:"errorText"`
	}
	if err := b.cdp.call(ctx, b.session, "Page.navigate", map[string]any{"url": target}, &nav); err != nil {
		return fail("navigate to", err)
	}
	if nav.ErrorText != "" {
		return fail("navigate to", errors.New(nav.ErrorText))
	}
	cond := "!window.__axbusLeaving"
	if nav.LoaderID == "" { // a same-document navigation (a fragment): the document stays
		cond = "true"
	}
	title, err := b.waitLoaded(ctx, cond)
	if err != nil {
		return fail("load", err)
	}
	b.Title = title
	tLoad := time.Since(t0)
	if !b.noTree {
		if err := s.waitDocument(ctx, b); err != nil {
			return fail("no document web in the accessibility tree for", err)
		}
	}
	s.log.Debug("headless: browser navigated", "pid", b.PID, "page", target, "title", title,
		"loaded", tLoad.Round(time.Millisecond), "tree", time.Since(t0).Round(time.Millisecond))
	return nil
}

// waitLoaded polls the page until cond (a JavaScript expression) holds and document.readyState is
// "complete", and returns document.title then. Evaluations that fail meanwhile (the page's context is being
// replaced) are retried.
func (b *Browser) waitLoaded(ctx context.Context, cond string) (string, error) {
	js := "(" + cond + `) && document.readyState == "complete" ? [document.title] : null`
	var title string
	var last error
	err := backoff.Retry(func() error {
		v, err := b.cdp.evaluate(ctx, b.session, js)
		if err == nil {
			var t []string
			if json.Unmarshal(v, &t) == nil && len(t) == 1 {
				title = t[0]
				return nil
			}
		}
		last = err
		if b.proc.exited() {
			return backoff.Permanent(errExited)
		}
		return errNotYet
	}, pace.Every(ctx, pagePoll, 0))
	switch {
	case err == nil:
		return title, nil
	case errors.Is(err, errExited):
		return "", fmt.Errorf("chromium exited (%v)", b.proc.err)
	case last != nil:
		return "", fmt.Errorf("%w (last: %v)", err, last)
	}
	return "", err
}

// errExited ends a wait on a browser that exited.
var errExited = errors.New("headless: the browser exited")

// waitDocument polls the browser's accessibility tree until it holds a document web named b.Title (Chromium
// builds the tree of a page some time after the page has loaded).
func (s *Session) waitDocument(ctx context.Context, b *Browser) error {
	var names []string
	var last error
	err := backoff.Retry(func() error {
		names, last = s.documents(ctx, b.Bus)
		switch {
		case slices.Contains(names, b.Title):
			return nil
		case errors.Is(last, errClosed):
			return backoff.Permanent(last)
		}
		return errNotYet
	}, pace.Every(ctx, pagePoll, 0))
	if err != nil {
		return fmt.Errorf("%w (document webs seen: %q, want %q; last error: %v)", err, names, b.Title, last)
	}
	return nil
}

// documents lists the names of the document webs under the app bus, breadth first down to docDepth levels,
// without entering them; each level's calls go out together.
func (s *Session) documents(ctx context.Context, bus string) ([]string, error) {
	if s.aconn == nil {
		return nil, errClosed
	}
	var docs []string
	var lastErr error
	level := []accRef{{Name: bus, Path: registryRoot}}
	walked := 0
	for depth := 0; depth <= docDepth && len(level) > 0 && walked < docMaxNodes; depth++ {
		walked += len(level)
		roles := make([]*dbus.Call, len(level))
		kids := make([]*dbus.Call, len(level))
		for i, r := range level {
			obj := s.aconn.Object(r.Name, r.Path)
			roles[i] = obj.GoWithContext(ctx, "org.a11y.atspi.Accessible.GetRole", 0, make(chan *dbus.Call, 1))
			kids[i] = obj.GoWithContext(ctx, "org.a11y.atspi.Accessible.GetChildren", 0, make(chan *dbus.Call, 1))
		}
		var next []accRef
		for i, r := range level {
			var role uint32
			if err := (<-roles[i].Done).Store(&role); err != nil {
				lastErr = err
				<-kids[i].Done
				continue
			}
			if role == roleDocumentWeb {
				<-kids[i].Done
				if v, err := s.aconn.Object(r.Name, r.Path).GetProperty("org.a11y.atspi.Accessible.Name"); err == nil {
					n, _ := v.Value().(string)
					docs = append(docs, n)
				}
				continue // never walk a page
			}
			var refs []accRef
			if err := (<-kids[i].Done).Store(&refs); err != nil {
				lastErr = err
				continue
			}
			for _, k := range refs {
				if k.Path != "/org/a11y/atspi/null" {
					next = append(next, k)
				}
			}
		}
		level = next
	}
	return docs, lastErr
}

// end kills the browser's process group and waits (bounded) for it to be reaped; the DevTools pipe is closed
// so that no process that kept Chromium's end of it holds the reader up.
func (b *Browser) end() {
	if !b.proc.exited() {
		_ = syscall.Kill(-b.PID, syscall.SIGKILL)
	}
	select {
	case <-b.proc.done:
	case <-time.After(killGrace):
		b.cdp.close()
		select {
		case <-b.proc.done:
		case <-time.After(killGrace):
		}
	}
	b.cdp.close()
}
