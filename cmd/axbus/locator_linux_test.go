package main

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// TestLocatorsOnGTK: on the GTK3 and GTK4 fixtures, end to end through NATS and with no inspect
// first, actions on locators, each effect witnessed by the app itself.
func TestLocatorsOnGTK(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3, headless.KindGTK4)
	for _, kind := range []string{headless.KindGTK3, headless.KindGTK4} {
		t.Run(kind, func(t *testing.T) { dd.testLocators(t, kind) })
	}
}

func (dd *desktopDaemon) testLocators(t *testing.T, kind string) {
	pid := strconv.Itoa(dd.apps[kind].PID)
	app := api.AppTarget{PID: dd.apps[kind].PID}

	// click Save by its locator; the expect is the proof, the app's own count the witness.
	saves := dd.state(t, kind).Saves
	out, errOut, code := dd.cli(t, "click", "role=button,name=Save", "--pid", pid, "--expect", `text:"Saved"`)
	if code != 0 {
		t.Fatalf("click by locator: exit %d\n%s%s", code, out, errOut)
	}
	testdaemon.MustMatch(t, "click.reply", []byte(out))
	r := testdaemon.Decode[api.ActionReply](t, out)
	if r.Target == nil || r.Target.Name != "Save" || r.Target.Role != model.RoleButton || r.Target.Bounds == nil ||
		r.Target.WaitedMS == nil || r.Expect == nil || r.Expect.Outcome != api.WaitMet {
		t.Fatalf("reply: %s", out)
	}
	dd.eventually(t, kind, "the app counts the save", func(s headless.State) bool { return s.Saves == saves+1 })
	dd.do(t, kind, map[string]any{"cmd": "close_dialog"})

	// Two identical buttons: strict by default, nth picks one.
	dd.do(t, kind, map[string]any{"cmd": "remove_buttons"})
	dd.do(t, kind, map[string]any{"cmd": "add_button", "label": "Apply"})
	dd.do(t, kind, map[string]any{"cmd": "add_button", "label": "Apply"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Apply", AppTarget: app})
	e := model.AsError(err)
	cands, _ := e.Details["candidates"].([]any)
	if e.Code != model.CodeAmbiguousTarget || len(cands) != 2 {
		t.Fatalf("two Apply buttons: %v %v", err, e.Details)
	}
	for _, c := range cands {
		if c.(map[string]any)["bounds"] == nil || c.(map[string]any)["name"] != "Apply" {
			t.Fatalf("a candidate without its name or bounds: %v", c)
		}
	}
	if _, err := dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Apply,nth=2", AppTarget: app}); err != nil {
		t.Fatalf("nth=2: %v %v", err, model.AsError(err).Details)
	}
	st := dd.eventually(t, kind, "the second Apply is clicked", func(s headless.State) bool { return len(s.Buttons) == 2 && s.Buttons[1].Clicks == 1 })
	if st.Buttons[0].Clicks != 0 {
		t.Fatalf("nth=2 clicked the first too: %+v", st.Buttons)
	}

	// A button that becomes sensitive 300 ms after the request is clicked as it does.
	dd.do(t, kind, map[string]any{"cmd": "remove_buttons"})
	dd.do(t, kind, map[string]any{"cmd": "add_button", "label": "Apply", "sensitive": false})
	if _, err := dd.client.Act(ctx, "focus", api.ActionRequest{Locator: "role=button,name=Apply", AppTarget: app, TimeoutMS: 5000}); err == nil {
		// focus needs it enabled too: this one is not, so the wait must time out; it may not.
		t.Fatal("focus on an insensitive button worked")
	} else if e := model.AsError(err); e.Code != model.CodeTimeout || e.Details["check"] != "disabled" {
		t.Fatalf("focus on an insensitive button: %v %v", err, e.Details)
	}
	requested := time.Now()
	dd.do(t, kind, map[string]any{"cmd": "set_sensitive", "label": "Apply", "sensitive": true, "after_ms": 300})
	reply, err := dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Apply", AppTarget: app})
	if err != nil {
		t.Fatalf("click on the button enabled later: %v %v", err, model.AsError(err).Details)
	}
	st = dd.eventually(t, kind, "Apply is clicked", func(s headless.State) bool { return len(s.Buttons) == 1 && s.Buttons[0].Clicks == 1 })
	clicked, enabled := time.Unix(0, st.Buttons[0].ClickedAt), time.Unix(0, st.Buttons[0].SensitiveAt)
	t.Logf("%s: enabled %v after the request, clicked %v after it (%v after enabled); waited_ms %.1f",
		kind, enabled.Sub(requested), clicked.Sub(requested), clicked.Sub(enabled), *reply.Target.WaitedMS)
	if clicked.Before(enabled) {
		t.Fatalf("clicked before it was sensitive")
	}
	// The race detector slows every read several times over: the timing holds without it
	// (make test runs this test so too).
	if kind == headless.KindGTK3 && !testkit.RaceDetector && clicked.Sub(requested) > 340*time.Millisecond {
		t.Fatalf("clicked %v after the request; want 300-340 ms", clicked.Sub(requested))
	}

	// And with physical input: the hit test at its centre finds it, not covered.
	reply, err = dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Apply", AppTarget: app, Policy: api.PolicyPhysical})
	if err != nil || !reply.Done {
		t.Fatalf("physical click by locator: %v %v", err, model.AsError(err).Details)
	}
	dd.eventually(t, kind, "Apply is clicked again", func(s headless.State) bool { return s.Buttons[0].Clicks == 2 })

	// Nothing matches: TIMEOUT after the timeout, saying not_found.
	start := time.Now()
	out, errOut, code = dd.cli(t, "click", "role=button,name=Nowhere", "--pid", pid, "--timeout", "500ms")
	e = testdaemon.Decode[api.ErrorBody](t, out).Error
	if code != model.CodeTimeout.Info().Exit || e.Details["check"] != "not_found" || time.Since(start) < 500*time.Millisecond {
		t.Fatalf("no such button: exit %d after %v\n%s%s", code, time.Since(start), out, errOut)
	}
	dd.do(t, kind, map[string]any{"cmd": "remove_buttons"})
}
