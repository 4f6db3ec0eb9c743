package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/model"
)

// The web console (issue 37) in a real browser, Debian's Chromium driven over DevTools, on a
// daemon serving the GTK3 fixture: the page loads with its token and lists the fixture; a click
// with an expect made from the CLI shows in Actions with its outcome; a change in the fixture
// shows in Live; a monitor's page that tries an action is refused by the server; an acting
// console's Window view draws the screenshot with the elements' boxes, and the locator it shows
// under the pointer is one `axbus click` accepts, which the fixture's own account confirms.
func TestConsoleOnGTK3(t *testing.T) {
	const kind = headless.KindGTK3
	dd := startDesktopDaemonWith(t, func(c *daemon.Config) { c.Console = "127.0.0.1:0" }, kind)
	app := dd.apps[kind]
	pid := fmt.Sprint(app.PID)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	b, err := dd.session.StartBrowser(ctx, consoleURL(t, dd, "monitor"))
	if err != nil {
		t.Fatal(err)
	}
	dd.browser = b
	dd.domEventually(t, `String(window.axbus.ready) + window.axbus.error`, "true")
	dd.domEventually(t, `[...document.querySelectorAll('#apps li')].some(li => li.dataset.name === `+jsString(headless.AppName(kind))+`)`, "true")

	t.Run("actions", func(t *testing.T) {
		dd.dom(t, `document.querySelector('[data-view=actions]').click(); 'ok'`)
		out, errOut, code := dd.cli(t, "click", "role=button,name=Save", "--pid", pid, "--expect", "dialog")
		if code != 0 {
			t.Fatalf("click: %d %s %s", code, out, errOut)
		}
		dd.domEventually(t, `(() => { const r = document.querySelector('#actions-rows tr[data-action=click]'); return r ? r.cells[5].textContent + ' ' + r.cells[6].textContent.split(' ')[0] : '' })()`, "done met")
		lag := dd.dom(t, `String(window.axbus.actionLag.at(-1))`)
		var ms float64
		if _, err := fmt.Sscan(lag, &ms); err != nil || ms > 500 {
			t.Fatalf("the click's record showed %s ms after the action ended, want within 500", lag)
		}
		t.Logf("the click's record on the page %.0f ms after the action ended", ms)
		row := dd.dom(t, `[...document.querySelector('#actions-rows tr[data-action=click]').cells].map(c => c.textContent).join(' | ')`)
		if !strings.Contains(row, "met") || !strings.Contains(row, " by ") || !strings.Contains(row, " ok ") {
			t.Fatalf("the click's row says no expect's trigger or chain: %s", row)
		}
		t.Logf("its row: %s", row)
		dd.do(t, kind, map[string]any{"cmd": "close_dialog"})
	})

	t.Run("live", func(t *testing.T) {
		dd.dom(t, `document.querySelector('[data-view=live]').click(); 'ok'`)
		dd.do(t, kind, map[string]any{"cmd": "set_text", "text": "seen live"})
		dd.domEventually(t, `String([...document.querySelectorAll('#live-rows tr')].some(r => r.textContent.includes('seen live')))`, "true")
	})

	t.Run("a monitor may not act", func(t *testing.T) {
		before := dd.state(t, kind).Saves
		got := dd.dom(t, `window.axbus.tryAction('click', {pid: `+pid+`, locator: 'role=button,name=Save'})`)
		if got != "PERMISSION_DENIED" {
			t.Fatalf("a monitor's console clicked: %q, want PERMISSION_DENIED", got)
		}
		if after := dd.state(t, kind).Saves; after != before {
			t.Fatalf("the fixture saved %d times after a refused click, before %d", after, before)
		}
	})

	t.Run("window", func(t *testing.T) {
		// The fixture beside the browser and in front (no window manager stacks them here), so
		// that its screenshot shows it.
		for _, op := range [][]string{{"move", "--to", "480,324"}, {"raise"}} {
			if out, errOut, code := dd.cli(t, append(append([]string{"window"}, op...), "--pid", pid)...); code != 0 {
				t.Fatalf("window %v: %d %s %s", op, code, out, errOut)
			}
		}
		if err := b.Navigate(ctx, consoleURL(t, dd, "agent")); err != nil {
			t.Fatal(err)
		}
		dd.domEventually(t, `String(window.axbus.ready) + window.axbus.error`, "true")
		dd.domEventually(t, `(() => { const li = [...document.querySelectorAll('#apps li')].find(li => li.dataset.pid === '`+pid+`'); if (li) li.click(); return String(!!li) })()`, "true")
		dd.domEventually(t, `(() => { const li = document.querySelector('#windows li'); if (li) li.click(); return String(!!li) })()`, "true")
		if !testkit.Within(20*time.Second, func() bool {
			return dd.dom(t, `String(!!(window.axbus.window && window.axbus.window.shot && window.axbus.window.boxes > 5))`) == "true"
		}) {
			t.Fatalf("the window view: %s; %s", dd.dom(t, `JSON.stringify(window.axbus.window)`), dd.dom(t, `document.getElementById('window-note').textContent`))
		}
		t.Logf("window view: %s", dd.dom(t, `JSON.stringify(window.axbus.window)`))
		at := dd.dom(t, `JSON.stringify(window.axbus.pointFor('button', 'Save'))`)
		var p struct{ X, Y float64 }
		if err := json.Unmarshal([]byte(at), &p); err != nil {
			t.Fatalf("no Save box on the canvas: %s", at)
		}
		dd.dom(t, fmt.Sprintf(`document.getElementById('window-canvas').dispatchEvent(new MouseEvent('mousemove', {clientX: %f, clientY: %f, bubbles: true})); 'ok'`, p.X, p.Y))
		// The view follows the app: a change there is in its tree a moment later, with no click.
		dd.do(t, kind, map[string]any{"cmd": "set_text", "text": "followed"})
		if !testkit.Within(10*time.Second, func() bool {
			return dd.dom(t, `String([...document.querySelectorAll('#window-tree li')].some(li => li.textContent.includes('= followed')))`) == "true"
		}) {
			t.Fatal("the window view's tree never showed the app's new text")
		}
		dd.domEventually(t, `String(!!(window.axbus.window && window.axbus.window.shot))`, "true")
		locator := dd.dom(t, `window.axbus.hovered ? window.axbus.hovered.locator : ''`)
		if !strings.Contains(locator, "Save") {
			t.Fatalf("the locator under the pointer at Save is %q", locator)
		}
		shown := dd.dom(t, `document.getElementById('window-locator').textContent`)
		t.Logf("under the pointer: %s", shown)
		if shot := os.Getenv("AXBUS_CONSOLE_SHOT"); shot != "" {
			png, err := b.Screenshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(shot, png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		before := dd.state(t, kind).Saves
		if out, errOut, code := dd.cli(t, "click", locator, "--pid", pid); code != 0 {
			t.Fatalf("axbus click %q: %d %s %s", locator, code, out, errOut)
		}
		dd.eventually(t, kind, "Save clicked by the console's locator", func(s headless.State) bool { return s.Saves > before })
		dd.do(t, kind, map[string]any{"cmd": "close_dialog"})
	})

	t.Run("history", func(t *testing.T) { // the page above is a new one: what Live showed before is in the stream alone
		dd.dom(t, `document.querySelector('[data-view=live]').click(); document.getElementById('live-since').value = '10m'; document.getElementById('live-history').click(); 'ok'`)
		dd.domEventually(t, `String([...document.querySelectorAll('#live-rows tr')].some(r => r.textContent.includes('seen live')))`, "true")
		t.Logf("history: %s events read", dd.dom(t, `String(window.axbus.history)`))
	})

	t.Run("agents and flows", func(t *testing.T) {
		dd.dom(t, `document.querySelector('[data-view=agents]').click(); 'ok'`)
		dd.domEventually(t, `(() => { const names = [...document.querySelectorAll('#agents-rows tr')].map(r => r.cells[0].textContent); return String(names.includes('owner') && names.includes('console-agent')) })()`, "true")
		dd.dom(t, `document.querySelector('[data-view=flows]').click(); 'ok'`)
		flow := filepath.Join(t.TempDir(), "save.json")
		body := fmt.Sprintf(`{"version": 1, "name": "save", "steps": [{"action": "click", "app": %q, "locator": "role=button,name=Save", "expect": "dialog"}]}`, headless.AppName(kind))
		if err := os.WriteFile(flow, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, errOut, code := dd.cli(t, "replay", flow); code != 0 {
			t.Fatalf("replay: %d %s %s", code, out, errOut)
		}
		dd.domEventually(t, `(() => { const r = document.querySelector('#flows-rows tr'); return r ? r.cells[2].textContent + ' ' + r.cells[4].textContent + ' ' + r.cells[5].textContent : '' })()`, "save 1/1 met")
		dd.do(t, kind, map[string]any{"cmd": "close_dialog"})
	})
}

// consoleURL is a fresh console URL of role from `axbus console`.
func consoleURL(t *testing.T, dd *desktopDaemon, role string) string {
	t.Helper()
	out, errOut, code := dd.cli(t, "console", "--role", role, "--json")
	var r api.ConsoleReply
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.URL == "" {
		t.Fatalf("axbus console: %d %s %s", code, out, errOut)
	}
	return r.URL
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A hub's console (axbus hub --console) shows the whole fleet: every host that joined, each
// host's apps, and live events from any of them; axbus hub console prints the next URL once the
// one the hub printed is spent.
func TestHubConsole(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &testkit.Buffer{}
	ended := make(chan int, 1)
	go func() {
		ended <- run(ctx, []string{"hub", "--state-dir", dir, "--listen", "127.0.0.1:0", "--leaf-listen", "127.0.0.1:0", "--console", "127.0.0.1:0"}, out, out)
	}()
	t.Cleanup(func() { cancel(); <-ended })
	var leafURL, consoleLink string
	if !testkit.Within(20*time.Second, func() bool {
		for _, line := range strings.Split(out.String(), "\n") {
			if f := strings.Fields(line); len(f) > 4 && f[0] == "axbus" && f[1] == "serve" {
				leafURL = f[3]
			} else if len(f) > 1 && f[0] == "console:" {
				consoleLink = f[1]
			}
		}
		return leafURL != "" && consoleLink != ""
	}) {
		t.Fatalf("the hub printed no leaf URL and console: %s", out.String())
	}
	hosts := map[string]*daemon.Daemon{}
	for _, h := range []string{"h1", "h2"} {
		d, err := daemon.Start(daemon.Config{Backend: "sim", Desktop: "demo", StateDir: t.TempDir(), Listen: "127.0.0.1:0", Host: h,
			HubURL: leafURL, HubSeed: filepath.Join(dir, "hub-leaf.nk")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = d.Close(context.Background()) })
		hosts[h] = d
	}
	sctx, scancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer scancel()
	sess := testdaemon.StartHeadless(t, sctx)
	b, err := sess.StartBrowser(sctx, consoleLink)
	if err != nil {
		t.Fatal(err)
	}
	dd := &desktopDaemon{browser: b}
	dd.domEventually(t, `String(window.axbus.ready) + window.axbus.error`, "true")
	dd.domEventually(t, `(() => { if (window.axbus.hosts.length < 2) document.getElementById('hosts-refresh').click(); return window.axbus.hosts.join(',') })()`, "h1,h2")
	dd.domEventually(t, `(() => { document.querySelector('#hosts li[data-host=h2]').click(); return document.getElementById('apps-host').textContent + ':' + [...document.querySelectorAll('#apps li')].map(li => li.dataset.name).sort().join(',') })()`, "h2:Mail,Notes")
	dd.dom(t, `document.querySelector('[data-view=live]').click(); 'ok'`)
	hosts["h1"].Pub.Offer(model.Event{App: model.AppRef{Name: "Notes", PID: 501}, Type: model.EventValueChanged, Time: time.Now(),
		Element: &model.ElementSummary{Role: model.RoleTextField, Name: "Title", Value: "from h1"}})
	dd.domEventually(t, `String([...document.querySelectorAll('#live-rows tr')].some(r => r.cells[1].textContent === 'h1' && r.textContent.includes('from h1')))`, "true")

	var next string
	if !testkit.Within(5*time.Second, func() bool {
		o, _, code := runIn(t, "hub", "console", "--state-dir", dir)
		next = strings.TrimSpace(o)
		return code == 0 && next != "" && next != consoleLink
	}) {
		t.Fatalf("axbus hub console: %q, the spent one was %q", next, consoleLink)
	}
	if err := b.Navigate(sctx, next); err != nil {
		t.Fatal(err)
	}
	dd.domEventually(t, `String(window.axbus.ready) + window.axbus.error`, "true")
}
