package main

import (
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
)

// Every action says what it caused (issue 36), on real apps: a click that changes something is
// confirmed with its effects, a click on a button that does nothing is no_effect_seen within
// the settle window (the app's own account says the click landed), and an action with an
// expect waits no settle window. The GTK3 fixture's Save opens a dialog and says "Saved"; an
// added button counts its clicks and shows nothing.
func TestEffectsOnGTK3(t *testing.T) {
	const kind = headless.KindGTK3
	dd := startDesktopDaemon(t, kind)

	r := dd.mustAct(t, kind, "click", model.RoleButton, "Save", api.ActionRequest{})
	if r.Disposition != api.EffectConfirmed || len(r.Effects) == 0 {
		t.Fatalf("Save: %s %+v, want confirmed with its effects", r.Disposition, r.Effects)
	}
	t.Logf("Save: %s %+v", r.Disposition, r.Effects)
	dd.do(t, kind, map[string]any{"cmd": "close_dialog"})

	dd.do(t, kind, map[string]any{"cmd": "add_button", "label": "Idle"})
	noEffect(t, func() *api.ActionReply { // by locator: it waits for the button to show
		r, err := dd.actTarget(t, "click", "", api.ActionRequest{Locator: "role=button,name=Idle", AppTarget: api.AppTarget{PID: dd.apps[kind].PID}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	})
	dd.eventually(t, kind, "the idle button's clicks not counted", func(s headless.State) bool {
		return len(s.Buttons) == 1 && s.Buttons[0].Clicks >= 1
	})

	start := time.Now()
	r = dd.mustAct(t, kind, "toggle", model.RoleCheckbox, "Remember me",
		api.ActionRequest{Expect: &api.WaitRequest{Expr: "state:checked", TimeoutMS: 5000}})
	if r.Disposition != api.EffectConfirmed {
		t.Fatalf("toggle with its expect: %s %+v", r.Disposition, r.Effects)
	}
	t.Logf("toggle with its expect: %v (inspection included), %s %+v", time.Since(start).Round(time.Millisecond), r.Disposition, r.Effects)
}

// The same on Chromium: the page's Save adds "Saved" 300 ms later; the button in its frame does
// nothing.
func TestEffectsOnChromium(t *testing.T) {
	dd := startWebDaemon(t, "page.html")
	r := dd.mustWebAct(t, "click", "save", api.ActionRequest{})
	if r.Disposition != api.EffectConfirmed || len(r.Effects) == 0 {
		t.Fatalf("Save: %s %+v, want confirmed with its effects", r.Disposition, r.Effects)
	}
	t.Logf("Save: %s %+v", r.Disposition, r.Effects)
	dd.domEventually(t, `document.getElementById('messages').textContent`, "Saved")

	dd.dom(t, `window.frameClicks = 0; document.getElementById('frame').contentDocument.querySelector('button').addEventListener('click', () => window.frameClicks++); 'ok'`)
	noEffect(t, func() *api.ActionReply { return dd.mustWebAct(t, "click", "name:Frame button", api.ActionRequest{}) })
	dd.domEventually(t, `String(window.frameClicks)`, "1")
}

// noEffect does an action that changes nothing and checks it is told so, within the settle
// window and not much later.
func noEffect(t *testing.T, act func() *api.ActionReply) {
	t.Helper()
	start := time.Now()
	r := act()
	took := time.Since(start)
	if r.Disposition != api.EffectNoneSeen || len(r.Effects) != 0 {
		t.Fatalf("a click that does nothing: %s %+v, want no_effect_seen", r.Disposition, r.Effects)
	}
	t.Logf("a click that does nothing: %s in %v (the inspection before it included)", r.Disposition, took.Round(time.Millisecond))
}
