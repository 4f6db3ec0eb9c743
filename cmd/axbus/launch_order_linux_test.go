package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
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
	insp := testdaemon.Decode[model.Inspection](t, out)
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

// TestClicksInTurnLandInOrder: GTK 4 clicks a button 250 ms after it answers DoAction, as a key
// press would. Four locator clicks sent in turn on gnome-calculator's keypad, each answered
// done, gave "2+3" with no result: the read came before the last click had landed. A reply must
// mean the app has the action, so that a read right after it sees its effect and the next action
// cannot overtake it.
func TestClicksInTurnLandInOrder(t *testing.T) {
	dd := startDaemonWith(t, func(ctx context.Context, dd *desktopDaemon) []int {
		app, err := dd.session.StartProgram(ctx, "gnome-calculator", []string{"gnome-calculator"})
		if err != nil {
			t.Fatal(err)
		}
		dd.apps["calculator"] = app
		return []int{app.PID}
	})
	// The poller's whole re-read of the window every second, which only subscribers to polled
	// diffs ask for, makes gnome-calculator put an operator after the digit that follows it
	// ("23+") now and then, whoever clicks: not what this test is about.
	if err := dd.snaps.Unsubscribe(); err != nil {
		t.Fatal(err)
	}
	click := func(key string) {
		t.Helper()
		// GTK 4.8 names a keypad button twice: its own name and its label's ("2 2").
		out, errOut, code := dd.cli(t, "click", fmt.Sprintf("role=button,name=%q", key+" "+key), "--app", "gnome-calculator", "--json")
		if code != 0 || !testdaemon.Decode[api.ActionReply](t, out).Done {
			t.Fatalf("click %s: exit %d %s%s", key, code, out, errOut)
		}
	}
	display := func() string {
		t.Helper()
		out, errOut, code := dd.cli(t, "inspect", "--app", "gnome-calculator", "--find", "role=text_area", "--json")
		insp := testdaemon.Decode[model.Inspection](t, out)
		if code != 0 || len(insp.Elements) == 0 {
			t.Fatalf("the display: exit %d %s%s", code, out, errOut)
		}
		if v := insp.Elements[0].Value; v != nil {
			return *v
		}
		return ""
	}
	for _, sum := range [][3]string{{"2", "3", "5"}, {"4", "5", "9"}, {"6", "1", "7"}, {"7", "2", "9"}} {
		a, b, total := sum[0], sum[1], sum[2]
		for _, key := range []string{a, "+", b} {
			click(key)
		}
		if got := display(); got != a+"+"+b { // read right after the replies: no wait
			t.Fatalf("right after the clicks on %s, +, %s were answered the display shows %q", a, b, got)
		}
		click("=")
		if got := display(); got != total {
			t.Fatalf("right after = was answered the display shows %q, want %s", got, total)
		}
	}
}

// TestFirefoxPressesHeadless: Firefox ESR answers AT-SPI's GetActions with ";;" in every field of
// the tuple, where axbus took the first for the action's name: inspect listed ";;" and every
// headless click failed. Names now come from GetName, as libatspi's do.
func TestFirefoxPressesHeadless(t *testing.T) {
	dd := startDaemonWith(t, func(context.Context, *desktopDaemon) []int { return nil })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ff, err := dd.session.StartFirefox(ctx, "matrix.html")
	if err != nil {
		t.Fatal(err)
	}
	pid := fmt.Sprint(ff.PID)
	if out, errOut, code := dd.cli(t, "wait", "element:role=button,name=Save", "--pid", pid, "--for", "30s"); code != 0 {
		t.Fatalf("the page's Save button: exit %d %s%s", code, out, errOut) // Firefox shows its window before the page
	}
	out, errOut, code := dd.cli(t, "inspect", "--pid", pid, "--find", "role=button,name=Save", "--json")
	insp := testdaemon.Decode[model.Inspection](t, out)
	if code != 0 || len(insp.Elements) != 1 || !slices.Contains(insp.Elements[0].Actions, "press") {
		t.Fatalf("inspect: exit %d %s%s: want Save with its action press", code, out, errOut)
	}
	out, errOut, code = dd.cli(t, "click", "role=button,name=Save", "--pid", pid, "--expect", `text="Saved"`, "--json")
	if reply := testdaemon.Decode[api.ActionReply](t, out); code != 0 || !reply.Done || reply.Expect == nil || reply.Expect.Outcome != api.WaitMet {
		t.Fatalf("click Save: exit %d %s%s", code, out, errOut)
	}
}

// TestQtAppsAreSeen: a Qt app opened in the headless desktop never appeared in apps (Qt 5.15
// finds the accessibility bus through the root window's AT_SPI_BUS, which Xvfb lost when the bus
// launcher's connection left), and once it did, axbus's first read killed it (Qt 5 and 6 crash
// on Properties.GetAll). Both fixtures, opened after the daemon, are listed, read and pressed,
// and live on: each says it saved.
func TestQtAppsAreSeen(t *testing.T) {
	dd := startDaemonWith(t, func(context.Context, *desktopDaemon) []int { return nil })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, kind := range []string{headless.KindQt5, headless.KindQt6} {
		app, err := dd.session.StartApp(ctx, kind, "AXBUS_FIXTURE_SAVE_DELAY_MS=0")
		if err != nil {
			t.Fatal(err)
		}
		pid := fmt.Sprint(app.PID)
		if out, _, code := dd.cli(t, "apps", "--json"); code != 0 || !strings.Contains(out, `"pid":`+pid) {
			t.Fatalf("%s: apps lacks pid %s: %s", kind, pid, out)
		}
		if out, errOut, code := dd.cli(t, "read", "--pid", pid, "--text"); code != 0 || !strings.Contains(out, "First paragraph of the document.") {
			t.Fatalf("%s: read: exit %d %s%s", kind, code, out, errOut)
		}
		out, errOut, code := dd.cli(t, "click", "role=button,name=Save", "--pid", pid, "--expect", `text="Saved"`, "--json")
		if reply := testdaemon.Decode[api.ActionReply](t, out); code != 0 || !reply.Done || reply.Expect == nil || reply.Expect.Outcome != api.WaitMet {
			t.Fatalf("%s: click Save: exit %d %s%s", kind, code, out, errOut)
		}
		if err := app.WaitOutput(ctx, "SAVED 1"); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
	}
}
