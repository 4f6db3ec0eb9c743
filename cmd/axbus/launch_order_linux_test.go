package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// TestChromiumOpenedAfterTheDaemon: a user's daemon runs first and Chromium opens later, read
// while it loads its page (an agent inspecting as soon as the browser shows). The daemon kept the
// children of the panel that holds the page, which named the blank document Chromium shows first
// and then replaced without a children-changed event: every later inspect listed the browser's
// own UI and none of the page (incomplete_read), and waits never saw its text.
func TestChromiumOpenedAfterTheDaemon(t *testing.T) {
	dd := startDaemonWith(t, func(context.Context, *desktopDaemon) []int { return nil })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// A wait armed before the browser runs is met by the text the page adds 1.5 s after it loads.
	waited := make(chan *api.WaitResult, 1)
	go func() {
		out, _, _ := dd.cli(t, "wait", `text:"Added later"`, "--for", "45s", "--json")
		waited <- decodeOr[api.WaitResult](out)
	}()

	// Inspect again and again while the browser starts, as an impatient agent would.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				dd.cli(t, "inspect", "--app", "Chromium", "--json")
			}
		}
	}()
	b, err := dd.session.StartBrowser(ctx, "page.html?add=Added+later")
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	dd.browser = b

	out, errOut, code := dd.cli(t, "inspect", "--app", "Chromium", "--find", "role=button,name=Save", "--json")
	if code != 0 {
		t.Fatalf("inspect: %d %s", code, errOut)
	}
	insp := decode[observer.Inspection](t, out)
	if insp.Incomplete || len(insp.Elements) != 1 {
		t.Fatalf("the page's Save button: incomplete %v, %d found (want 1)\n%s", insp.Incomplete, len(insp.Elements), out)
	}
	out, errOut, code = dd.cli(t, "read", "--app", "Chromium", "--text")
	if code != 0 || !strings.Contains(out, "Details end here.") {
		t.Fatalf("read: %d %s\n%s", code, errOut, out)
	}
	select {
	case res := <-waited:
		if res == nil || res.Outcome != api.WaitMet {
			t.Fatalf("wait for the page's added text: %+v", res)
		}
	case <-ctx.Done():
		t.Fatal("the wait never answered")
	}
}

// decodeOr decodes doc, or returns nil when it is no T.
func decodeOr[T any](doc string) *T {
	var v T
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		return nil
	}
	return &v
}
