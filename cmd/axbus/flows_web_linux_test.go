package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testkit"
)

// An agent's session on Chromium recorded from its actions (issue 36): fill the form's Name (by
// physical input: Chromium's fields have no EditableText; the step keeps the policy),
// press Save, whose "Saved" the page adds 300 ms later. The flow proves Save by that text, with
// no wait or sleep of its own. Replayed on the page loaded again with its delay raised to 1.5 s
// and the browser's window moved and resized: every step met, the page's DOM (read over
// DevTools, apart from axbus) holding the name and the text.
func TestRecordAnAgentOnChromium(t *testing.T) {
	dd := startWebDaemon(t, "page.html")
	ctx := testkit.Context(t, 2*time.Minute)
	app := api.AppTarget{PID: dd.browser.PID}
	rec, err := dd.client.Record(ctx, api.RecordRequest{Op: "start", Name: "form"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dd.client.Act(ctx, "set_value", api.ActionRequest{Locator: "role=text_field,name=Name", AppTarget: app, Value: "Ada", Policy: api.PolicyPhysical}); err != nil {
		t.Fatal(err)
	}
	if _, err := dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Save", AppTarget: app}); err != nil {
		t.Fatal(err)
	}
	stopped, err := dd.client.Record(ctx, api.RecordRequest{Op: "stop", Recording: rec.Recording})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.MarshalIndent(stopped.Flow, "", "  ")
	t.Logf("the flow:\n%s", raw)
	steps := stopped.Flow.Steps
	if len(steps) != 2 || steps[0].Expect != `value:"Ada"` || steps[1].Expect != `text:"Saved"` {
		t.Fatalf("want set_value proven by its value and Save by the text it added: %+v", steps)
	}
	for _, s := range steps {
		if s.Action == api.FlowWait {
			t.Fatalf("a wait step in the flow: %+v", s)
		}
	}

	if err := dd.browser.Navigate(ctx, "page.html?save_delay_ms=1500"); err != nil {
		t.Fatal(err)
	}
	x, y, w, h := 40.0, 30.0, 900.0, 700.0
	if _, err := dd.client.Window(ctx, api.WindowRequest{AppTarget: app, Op: "move", X: &x, Y: &y}); err != nil {
		t.Fatal(err)
	}
	if _, err := dd.client.Window(ctx, api.WindowRequest{AppTarget: app, Op: "resize", W: &w, H: &h}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	run, err := dd.client.Replay(ctx, api.ReplayRequest{Flow: *stopped.Flow})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome != api.FlowMet {
		t.Fatalf("the replay: %+v %+v", run.Steps, run.Failure)
	}
	if took := time.Since(start); took < 1500*time.Millisecond {
		t.Fatalf("met after %v: the page adds Saved 1.5 s after the click", took)
	}
	if got := dd.dom(t, `document.getElementById('name').value + '|' + document.getElementById('messages').textContent`); got != "Ada|Saved" {
		t.Fatalf("the page after the replay: %q", got)
	}
	t.Logf("replayed in %.0f ms: %+v", run.ElapsedMS, run.Steps)
}
