package main

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// The end-to-end tests on a real browser: Debian's Chromium on the pages of fixtures/web, in the
// private headless desktop, driven through NATS. Every effect is checked in the page's own DOM
// (over DevTools, never through accessibility).

// startWebDaemon starts a daemon on a headless desktop that shows page in Chromium, started
// with args.
func startWebDaemon(t *testing.T, page string, args ...string) *desktopDaemon {
	t.Helper()
	return startDaemonWith(t, func(ctx context.Context, dd *desktopDaemon) []int {
		b, err := dd.session.StartBrowser(ctx, page, args...)
		if err != nil {
			t.Fatal(err)
		}
		dd.browser = b
		return []int{b.PID}
	})
}

// dom evaluates js in the page: the independent witness of an effect.
func (dd *desktopDaemon) dom(t *testing.T, js string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw, err := dd.browser.Eval(ctx, js)
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	return s
}

// domEventually polls js until it gives want (the page applies some effects a moment later).
func (dd *desktopDaemon) domEventually(t *testing.T, js, want string) {
	t.Helper()
	var got string
	if !testkit.Within(5*time.Second, func() bool { got = dd.dom(t, js); return got == want }) {
		t.Fatalf("%s = %q, want %q", js, got, want)
	}
}

// webArea inspects the page's web area (the browser window's document, named after the page's
// title): the scope of everything a test does on the page.
func (dd *desktopDaemon) webArea(t *testing.T) (*model.Inspection, *model.Element) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	top, err := dd.client.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: dd.browser.PID}})
	if err != nil {
		t.Fatal(err)
	}
	area := find(top, model.RoleWebArea, dd.browser.Title)
	if area == nil {
		t.Fatalf("no web area %q in %d elements", dd.browser.Title, len(top.Elements))
	}
	return top, area
}

// page inspects the web area whole (scoped) and returns it.
func (dd *desktopDaemon) page(t *testing.T) *model.Inspection {
	t.Helper()
	top, area := dd.webArea(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	insp, err := dd.client.Inspect(ctx, api.InspectRequest{Scope: top.SnapshotID + ":" + area.ID})
	if err != nil {
		t.Fatal(err)
	}
	testdaemon.MustMatch(t, "inspect.reply", mustJSON(t, insp))
	return insp
}

// byID finds the element of the page with the HTML id.
func byID(t *testing.T, insp *model.Inspection, id string) *model.Element {
	t.Helper()
	for i := range insp.Elements {
		if insp.Elements[i].Identifier == id {
			return &insp.Elements[i]
		}
	}
	t.Fatalf("no element with id %q", id)
	return nil
}

// webAct does action on the page's element of that HTML id (or, with id "name:X", the element
// named X).
func (dd *desktopDaemon) webAct(t *testing.T, action, id string, req api.ActionRequest) (*api.ActionReply, error) {
	t.Helper()
	insp := dd.page(t)
	var el *model.Element
	if name, ok := strings.CutPrefix(id, "name:"); ok {
		for i := range insp.Elements {
			if insp.Elements[i].Name == name {
				el = &insp.Elements[i]
			}
		}
		if el == nil {
			t.Fatalf("no element named %q", name)
		}
	} else {
		el = byID(t, insp, id)
	}
	return dd.actTarget(t, action, insp.SnapshotID+":"+el.ID, req)
}

func (dd *desktopDaemon) mustWebAct(t *testing.T, action, id string, req api.ActionRequest) *api.ActionReply {
	t.Helper()
	r, err := dd.webAct(t, action, id, req)
	if err != nil {
		t.Fatalf("%s %s: %v %v", action, id, err, model.AsError(err).Details)
	}
	if !r.Done || !r.Delivered {
		t.Fatalf("%s %s: %+v", action, id, r)
	}
	return r
}

// TestWebActionsOnChromium acts on every kind of form element of the page, headless where
// Chromium allows it, and checks each effect in the DOM.
func TestWebActionsOnChromium(t *testing.T) {
	dd := startWebDaemon(t, "page.html")

	t.Run("click Save, expect the text its script adds", func(t *testing.T) {
		r := dd.mustWebAct(t, "click", "save", api.ActionRequest{Expect: &api.WaitRequest{Expr: `text:"Saved"`, TimeoutMS: 5000}})
		if r.Mechanism != "accessibility" || r.Expect == nil || r.Expect.Outcome != api.WaitMet {
			t.Fatalf("click: mechanism %q, expect %+v", r.Mechanism, r.Expect)
		}
		if got := dd.dom(t, `document.getElementById('messages').textContent`); got != "Saved" {
			t.Fatalf("the page's messages: %q", got)
		}
	})
	t.Run("locators: a button enabled 300 ms later, two alike, nth", func(t *testing.T) {
		app := api.AppTarget{PID: dd.browser.PID}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// An Apply button, disabled, enabled by the page 300 ms after the request; each click
		// stamps the page's own clock on it: the witness.
		dd.dom(t, `(() => {
			const add = (id, disabled) => {
				const b = document.createElement('button');
				b.id = id; b.type = 'button'; b.textContent = 'Apply'; b.disabled = disabled;
				b.onclick = () => { b.dataset.clicked = String(Date.now()); };
				document.querySelector('section[aria-label=Actions]').appendChild(b);
			};
			add('apply1', true);
			setTimeout(() => { const b = document.getElementById('apply1'); b.disabled = false; b.dataset.enabled = String(Date.now()); }, 300);
			window.addApply2 = () => add('apply2', false);
			return 'ok';
		})()`)
		r, err := dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Apply", AppTarget: app})
		if err != nil {
			t.Fatalf("click by locator: %v %v", err, model.AsError(err).Details)
		}
		if r.Target == nil || r.Target.Locator == "" || r.Target.WaitedMS == nil || r.Target.Name != "Apply" {
			t.Fatalf("reply: %+v", r.Target)
		}
		dd.domEventually(t, `String(!!document.getElementById('apply1').dataset.clicked)`, "true")
		clicked, _ := strconv.ParseInt(dd.dom(t, `document.getElementById('apply1').dataset.clicked`), 10, 64)
		enabled, _ := strconv.ParseInt(dd.dom(t, `document.getElementById('apply1').dataset.enabled`), 10, 64)
		t.Logf("chromium: clicked %d ms after the page enabled it; waited_ms %.1f", clicked-enabled, *r.Target.WaitedMS)
		if enabled == 0 || clicked < enabled {
			t.Fatalf("clicked at %d, enabled at %d", clicked, enabled)
		}

		dd.dom(t, `(addApply2(), 'ok')`)
		// Once the tree shows both (a wait on a locator), acting on either is ambiguous.
		if w, err := dd.client.Wait(ctx, api.WaitRequest{Expr: "role=button,name=Apply,nth=2", AppTarget: app}); err != nil || w.Outcome != api.WaitMet {
			t.Fatalf("wait for the second Apply: %v %+v", err, w)
		}
		_, err = dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Apply", AppTarget: app})
		if e := model.AsError(err); e.Code != model.CodeAmbiguousTarget || len(e.Details["candidates"].([]any)) != 2 {
			t.Fatalf("two Apply buttons: %v", err)
		}
		if _, err := dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Apply,nth=2", AppTarget: app}); err != nil {
			t.Fatalf("nth=2: %v %v", err, model.AsError(err).Details)
		}
		dd.domEventually(t, `String(!!document.getElementById('apply2').dataset.clicked)`, "true")
		dd.dom(t, `(document.getElementById('apply1').remove(), document.getElementById('apply2').remove(), 'ok')`)
	})
	t.Run("press by index", func(t *testing.T) {
		dd.mustWebAct(t, "press", "open-dialog", api.ActionRequest{Action: "0"})
		dd.domEventually(t, `String(document.getElementById('dialog').open)`, "true")
		dd.mustWebAct(t, "click", "dialog-ok", api.ActionRequest{})
		dd.domEventually(t, `String(document.getElementById('dialog').open)`, "false")
	})
	t.Run("check box and radio", func(t *testing.T) {
		r := dd.mustWebAct(t, "check", "remember", api.ActionRequest{})
		if r.Mechanism != "accessibility" {
			t.Fatalf("check went %s", r.Mechanism)
		}
		dd.domEventually(t, `String(document.getElementById('remember').checked)`, "true")
		dd.mustWebAct(t, "uncheck", "remember", api.ActionRequest{})
		dd.domEventually(t, `String(document.getElementById('remember').checked)`, "false")
		dd.mustWebAct(t, "check", "large", api.ActionRequest{})
		dd.domEventually(t, `document.querySelector('input[name=size]:checked').id`, "large")
	})
	t.Run("select an option", func(t *testing.T) {
		r := dd.mustWebAct(t, "select", "name:Blue", api.ActionRequest{})
		if r.Mechanism != "accessibility" {
			t.Fatalf("select went %s", r.Mechanism)
		}
		dd.domEventually(t, `document.getElementById('colour').value`, "Blue")
	})
	t.Run("focus", func(t *testing.T) {
		r := dd.mustWebAct(t, "focus", "notes", api.ActionRequest{})
		if r.Mechanism != "accessibility" {
			t.Fatalf("focus went %s", r.Mechanism)
		}
		dd.domEventually(t, `document.activeElement.id`, "notes")
	})
	t.Run("text: refused headless, typed with physical input", func(t *testing.T) {
		_, err := dd.webAct(t, "set_value", "name", api.ActionRequest{Value: "Zoë"})
		if e := model.AsError(err); err == nil || !strings.Contains(mustString(t, e.Details), "EditableText") ||
			!strings.Contains(e.Suggestion, "physical") {
			t.Fatalf("headless set_value on a web field: %v %v", err, e.Details)
		}
		if got := dd.dom(t, `document.getElementById('name').value`); got != "" {
			t.Fatalf("the refused set_value changed the field: %q", got)
		}
		for _, f := range []struct{ id, value, more string }{
			{"name", "Zoë Ångström", " ça va"},
			{"notes", "Straße", " 日本語"},
		} {
			dd.mustWebAct(t, "set_value", f.id, api.ActionRequest{Value: f.value, Policy: "physical"})
			dd.domEventually(t, `document.getElementById('`+f.id+`').value`, f.value)
			dd.mustWebAct(t, "type", f.id, api.ActionRequest{Text: f.more, Policy: "physical"})
			dd.domEventually(t, `document.getElementById('`+f.id+`').value`, f.value+f.more)
		}
	})
	t.Run("password never leaves", func(t *testing.T) {
		const typed = "Typed-S3cret"
		dd.mustWebAct(t, "set_value", "password", api.ActionRequest{Value: typed, Policy: "physical"})
		dd.domEventually(t, `document.getElementById('password').value`, typed)
		insp := dd.page(t)
		pw := byID(t, insp, "password")
		if pw.Role != model.RolePassword || pw.Value != nil || pw.Text != "" {
			t.Fatalf("the password field as listed: %+v", pw)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		read, err := dd.client.Read(ctx, api.ReadRequest{AppTarget: api.AppTarget{PID: dd.browser.PID}})
		if err != nil {
			t.Fatal(err)
		}
		everything := read.Text + string(mustJSON(t, insp)) + dd.log.String()
		dd.eventsMu.Lock()
		for _, e := range dd.allEvents {
			everything += string(e)
		}
		dd.eventsMu.Unlock()
		for _, secret := range []string{headless.FixturePassword, typed} {
			if strings.Contains(everything, secret) {
				t.Fatalf("the password %q left axbus", secret)
			}
		}
	})
}

func elementByID(insp *model.Inspection, id string) *model.Element {
	for i := range insp.Elements {
		if insp.Elements[i].ID == id {
			return &insp.Elements[i]
		}
	}
	return nil
}

func mustString(t *testing.T, v any) string {
	t.Helper()
	return string(mustJSON(t, v))
}

// TestWebReadOnChromium reads the page's web area and compares it line by line: links inline,
// nothing doubled, labels once, table cells tab-separated, the password never read.
func TestWebReadOnChromium(t *testing.T) {
	dd := startWebDaemon(t, "page.html")
	top, area := dd.webArea(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := dd.client.Read(ctx, api.ReadRequest{Scope: top.SnapshotID + ":" + area.ID})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Web fixture",
		"First paragraph with a link inside.",
		"Save",
		"Name",
		"Password",
		"Remember me",
		"Size",
		"Small Large",
		"Colour Red",
		"Notes",
		"Edit me",
		"Item\tQty\tPrice",
		"Apples\t3\t1.20",
		"Bread\t1\t2.50",
		"Open dialog",
		"Inside the frame.",
		"Frame button",
		"Details end here.",
	}
	got := strings.Split(r.Text, "\n")
	for i := range max(len(got), len(want)) {
		g, w := "", ""
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("line %d: got %q, want %q", i+1, g, w)
		}
	}
	if strings.Contains(r.Text, headless.FixturePassword) {
		t.Fatal("the read holds the password")
	}
}

// TestWebLongPageOnChromium: a 2,000-row table (~16,000 elements). A wait sees the whole window
// past the inspection budgets, scroll_to brings row 1,900 into the page's view, and a read of
// the web area reaches the last row.
func TestWebLongPageOnChromium(t *testing.T) {
	dd := startWebDaemon(t, "long.html")

	t.Run("wait for the last rows", func(t *testing.T) {
		// The first wait reads the page whole (~8 s; under the race detector on two busy cores, 40).
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Second)
		defer cancel()
		r, err := dd.client.Wait(ctx, api.WaitRequest{Expr: `text:"Row 1990"`, AppTarget: api.AppTarget{PID: dd.browser.PID}, TimeoutMS: 90000})
		if err != nil {
			t.Fatal(err)
		}
		testdaemon.MustMatch(t, "wait.reply", mustJSON(t, r))
		if r.Outcome != api.WaitMet || r.Match == nil || r.Match.Name != "Row 1990" || r.Snapshot == nil {
			t.Fatalf("wait: %s %+v limits %+v", r.Outcome, r.Match, r.Limits)
		}
		insp, err := r.Snapshot.Inspection()
		if err != nil {
			t.Fatal(err)
		}
		if el := elementByID(insp, r.Match.ID); el == nil || el.Name != "Row 1990" {
			t.Fatalf("the snapshot does not hold the match: %+v", el)
		}
		// Once read, the copy answers at once: the next wait is met from it.
		r, err = dd.client.Wait(ctx, api.WaitRequest{Expr: `text:"Row 2000"`, AppTarget: api.AppTarget{PID: dd.browser.PID}, TimeoutMS: 10000})
		if err != nil || r.Outcome != api.WaitMet {
			t.Fatalf("second wait: %v %+v", err, r)
		}
	})
	t.Run("scroll_to row 1900", func(t *testing.T) {
		in := `(() => { const r = document.getElementById('r1900').getBoundingClientRect(); return String(r.top >= 0 && r.bottom <= innerHeight); })()`
		if dd.dom(t, in) != "false" {
			t.Fatal("row 1900 is in view before scroll_to")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		w, err := dd.client.Wait(ctx, api.WaitRequest{Expr: `element:role=link,identifier=r1900`, AppTarget: api.AppTarget{PID: dd.browser.PID}, TimeoutMS: 30000})
		if err != nil || w.Outcome != api.WaitMet {
			t.Fatalf("wait for the link: %v %+v", err, w)
		}
		snap, err := w.Snapshot.Inspection()
		if err != nil {
			t.Fatal(err)
		}
		r, err := dd.client.Act(ctx, "scroll_to", api.ActionRequest{Target: snap.SnapshotID + ":" + w.Match.ID})
		if err != nil {
			t.Fatalf("scroll_to: %v %v", err, model.AsError(err).Details)
		}
		if !r.Done || r.Mechanism != "accessibility" {
			t.Fatalf("scroll_to: %+v", r)
		}
		dd.domEventually(t, in, "true")
	})
	t.Run("read reaches the last row", func(t *testing.T) {
		top, area := dd.webArea(t)
		r, err := dd.client.Read(context.Background(), api.ReadRequest{Scope: top.SnapshotID + ":" + area.ID})
		if err != nil {
			t.Fatal(err)
		}
		if r.Truncated || !strings.HasSuffix(r.Text, "Row 2000\tOpen 2000\tNote 2000") {
			tail := r.Text[max(0, len(r.Text)-200):]
			t.Fatalf("read of the long page: truncated %v %v, %d elements, ends %q", r.Truncated, r.Truncation, r.Elements, tail)
		}
	})
}

// TestWebEventsOnChromium: content a page script adds reaches ax.<host>.evt.> and a wait.
func TestWebEventsOnChromium(t *testing.T) {
	dd := startWebDaemon(t, "page.html")
	dd.drain()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The script adds a paragraph; the wait is armed first, so nothing is missed.
	r, err := dd.client.WaitAfter(ctx, api.WaitRequest{Expr: `text:"Added by script"`, AppTarget: api.AppTarget{PID: dd.browser.PID}, TimeoutMS: 10000},
		func(ctx context.Context) error {
			_, err := dd.browser.Eval(ctx, `(() => { const p = document.createElement('p'); p.textContent = 'Added by script'; document.body.appendChild(p); return 'ok'; })()`)
			return err
		})
	if err != nil || r.Outcome != api.WaitMet || r.Trigger == nil || r.Trigger.Kind != "event" {
		t.Fatalf("wait for the script's text: %v %+v", err, r)
	}
	dd.await(t, "children_changed from the page", dd.browser.PID, 10*time.Second, func(e api.Envelope) bool {
		return e.Type == model.EventChildrenChanged
	})
}
