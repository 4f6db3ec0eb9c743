package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/flows"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/schemas"
)

const notesPID = 501

// An agent's run recorded from its actions and replayed without a model (issue 36), on the sim:
// the flow has a unique locator for every step and the expect that proves it; replayed on a
// fresh desktop every step is met, and the desktop (read apart from axbus) has what the run
// did; a monitor follows the run's progress; once the app renames its button, the flow stops at
// that step with the error, the candidates (the renamed button among them) and a screenshot.
func TestRecordAnAgentAndReplay(t *testing.T) {
	d := testdaemon.StartSim(t, daemon.Config{Desktop: "demo"})
	agent := testdaemon.NewLeaseAgent(t, d, "ada", api.RoleAgent)
	ctx := testkit.Context(t, time.Minute)
	rec, err := agent.Client.Record(ctx, api.RecordRequest{Op: "start", Name: "notes"})
	if err != nil {
		t.Fatal(err)
	}
	notes := api.AppTarget{App: "Notes"}
	for _, a := range []struct {
		action string
		req    api.ActionRequest
	}{
		{"click", api.ActionRequest{Locator: "role=button,name=Save"}},
		{"click", api.ActionRequest{Locator: "role=button,name=OK"}},
		{"set_value", api.ActionRequest{Locator: "role=text_field,name=Title", Value: "Groceries"}},
		{"toggle", api.ActionRequest{Locator: `role=checkbox,name="Remember me"`}},
	} {
		a.req.AppTarget = notes
		if _, err := agent.Client.Act(ctx, a.action, a.req); err != nil {
			t.Fatalf("%s %s: %v", a.action, a.req.Locator, err)
		}
	}
	// Another identity's actions are not this recording's.
	if _, err := testdaemon.Client(t, d.Connect(t)).Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Compose", AppTarget: api.AppTarget{App: "Mail"}}); err != nil {
		t.Fatal(err)
	}
	stopped, err := agent.Client.Record(ctx, api.RecordRequest{Op: "stop", Recording: rec.Recording})
	if err != nil {
		t.Fatal(err)
	}
	flow := stopped.Flow
	raw, _ := json.MarshalIndent(flow, "", "  ")
	t.Logf("the flow:\n%s", raw)
	if err := schemas.Validate("flow", raw); err != nil {
		t.Fatalf("the flow against its schema: %v", err)
	}
	if len(flow.Steps) != 4 {
		t.Fatalf("%d steps, want 4 (ada's actions, not the owner's)", len(flow.Steps))
	}
	for i, want := range []struct{ locator, expect string }{
		{"role=button,name=Save", "dialog"},
		{"role=button,name=OK", "window_gone"},
		{"role=text_field,name=Title", `value:"Groceries"`},
		{`role=checkbox,name="Remember me"`, "state:checked"},
	} {
		s := flow.Steps[i]
		if s.App != "Notes" || !strings.HasSuffix(s.Locator, want.locator) || !strings.HasPrefix(s.Expect, want.expect) || (want.expect != "" && s.Expect == "") {
			t.Errorf("step %d: %+v, want locator %s and expect %s", i+1, s, want.locator, want.expect)
		}
	}

	// Replayed on a fresh desktop, followed by a monitor.
	fresh := testdaemon.StartSim(t, daemon.Config{Desktop: "demo"})
	runner := testdaemon.NewLeaseAgent(t, fresh, "bob", api.RoleAgent)
	monitor := testdaemon.NewLeaseAgent(t, fresh, "mo", api.RoleMonitor)
	progress := testkit.Subscribed(t, monitor.NC, fresh.Subjects.AllFlows())
	run, err := runner.Client.Replay(ctx, api.ReplayRequest{Flow: *flow})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome != api.FlowMet || len(run.Steps) != 4 {
		t.Fatalf("the replay: %+v %+v", run, run.Failure)
	}
	desk := fresh.Backend.(*sim.Desktop)
	if n, _ := desk.Peek(notesPID, "title"); n.Value != "Groceries" {
		t.Errorf("the title after the replay: %q", n.Value)
	}
	if n, _ := desk.Peek(notesPID, "remember"); !n.States.Has(model.StateChecked) {
		t.Errorf("Remember me after the replay: %v", n.States)
	}
	var events []string
	for range 6 { // started, 4 steps, ended
		m, err := progress.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatalf("the monitor's progress after %v: %v", events, err)
		}
		var p flows.Progress
		if err := json.Unmarshal(m.Data, &p); err != nil || p.Run != run.Run || p.Agent != "bob" {
			t.Fatalf("progress %s: %v", m.Data, err)
		}
		events = append(events, p.Event)
	}
	if strings.Join(events, ",") != "started,step,step,step,step,ended" {
		t.Errorf("progress %v", events)
	}
	t.Logf("replayed in %.0f ms: %+v", run.ElapsedMS, run.Steps)

	// The app changed: its Save is now Store. The run stops at step 1 and says why.
	if err := desk.SetTitle(notesPID, "save", "Store"); err != nil {
		t.Fatal(err)
	}
	broken := *flow
	broken.Steps = append([]api.FlowStep{}, flow.Steps...)
	broken.Steps[0].TimeoutMS = 500 // not the 5 s a step waits by default
	run, err = runner.Client.Replay(ctx, api.ReplayRequest{Flow: broken})
	if err != nil {
		t.Fatal(err)
	}
	f := run.Failure
	if run.Outcome != api.FlowFailed || f == nil || f.Step != 1 || f.Error == nil || len(run.Steps) != 1 {
		t.Fatalf("the broken flow: %+v %+v", run, f)
	}
	if !slices.ContainsFunc(f.Candidates, func(e model.Element) bool { return e.Role == model.RoleButton && e.Name == "Store" }) || f.Screenshot == nil || f.Locator != flow.Steps[0].Locator {
		t.Errorf("the report: candidates %+v, screenshot %+v, locator %q", f.Candidates, f.Screenshot, f.Locator)
	}
	t.Logf("the broken flow: %s %s; candidates %d, first %q", f.Error.Code, f.Error.Message, len(f.Candidates), f.Candidates[0].Name)
}

// A flow that cannot run is refused before any step runs, with the step and what to do.
func TestReplayRefusals(t *testing.T) {
	d := testdaemon.StartSim(t, daemon.Config{Desktop: "demo"})
	c := testdaemon.Client(t, d.Connect(t))
	ctx := testkit.Context(t, 30*time.Second)
	step := api.FlowStep{Action: "set_value", App: "Notes", Locator: "role=text_field,name=Title", Value: "${title}"}
	for _, tc := range []struct {
		name string
		flow api.Flow
		vars map[string]string
		want string
	}{
		{"version", api.Flow{Version: 2, Steps: []api.FlowStep{step}}, nil, "/flow/version: value must be 1"},
		{"parameter", api.Flow{Version: 1, Steps: []api.FlowStep{step}}, nil, "step 1: parameter title has no value"},
		{"locator", api.Flow{Version: 1, Steps: []api.FlowStep{{Action: "click", App: "Notes", Locator: "role=button,,"}}}, nil, "step 1:"},
		{"wait", api.Flow{Version: 1, Steps: []api.FlowStep{{Action: "wait", App: "Notes"}}}, nil, "step 1: a wait step without a condition"},
	} {
		_, err := c.Replay(ctx, api.ReplayRequest{Flow: tc.flow, Vars: tc.vars})
		if e := model.AsError(err); e == nil || e.Code != model.CodeBadRequest || !strings.Contains(e.Message, tc.want) || e.Suggestion == "" {
			t.Errorf("%s: %v, want BAD_REQUEST %q with a suggestion", tc.name, err, tc.want)
		}
	}
}

// The command line: record start and stop print the id and the flow, replay runs a flow file
// and exits 0 when every step is met, with the failure's status and a line saying which step
// when one is not, and a parameter comes from --var.
func TestRecordAndReplayWithTheCLI(t *testing.T) {
	d := startSimDaemon(t, daemon.Config{Desktop: "demo"})
	var started api.RecordReply
	if err := json.Unmarshal([]byte(must(t, d, "record", "start", "--name", "title", "--json")), &started); err != nil || started.Recording == "" {
		t.Fatalf("record start: %+v %v", started, err)
	}
	must(t, d, "set-value", "role=text_field,name=Title", "Groceries", "--app", "Notes")
	out := must(t, d, "record", "stop", started.Recording, "--json")
	var flow api.Flow
	if err := json.Unmarshal([]byte(out), &flow); err != nil || len(flow.Steps) != 1 {
		t.Fatalf("record stop: %s %v", out, err)
	}
	flow.Steps[0].Value, flow.Steps[0].Expect = "${title}", `value:"${title}"`
	path := filepath.Join(t.TempDir(), "flow.json")
	raw, _ := json.Marshal(flow)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	var run api.ReplayReply
	if err := json.Unmarshal([]byte(must(t, d, "replay", path, "--var", "title=Errands", "--json")), &run); err != nil || run.Outcome != api.FlowMet {
		t.Fatalf("replay: %+v %v", run, err)
	}
	if n, _ := d.Backend.(*sim.Desktop).Peek(notesPID, "title"); n.Value != "Errands" {
		t.Fatalf("the title after the replay: %q", n.Value)
	}
	flow.Steps[0].Locator, flow.Steps[0].TimeoutMS = "role=text_field,name=Heading", 300
	raw, _ = json.Marshal(flow)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := d.cli(t, "replay", path, "--var", "title=Errands", "--json")
	if code == 0 || !strings.Contains(errOut, "step 1 (set_value role=text_field,name=Heading) failed") {
		t.Fatalf("a broken flow: exit %d: %s", code, errOut)
	}
}

// A flow runs where its desktop is: a client of the hub replays it on one host of the fleet (the
// other host untouched), its progress followed through the hub.
func TestReplayThroughTheHub(t *testing.T) {
	f := testdaemon.StartFleet(t, []string{"h1", "h2"}, map[string]daemon.HubClient{}, nil)
	nc := f.Client(t, f.Hub.AdminSeedFile)
	h1 := testdaemon.On(t, nc, "h1")
	ctx := testkit.Context(t, time.Minute)
	flow := api.Flow{Version: 1, Name: "title", Steps: []api.FlowStep{
		{Action: "set_value", App: "Notes", Locator: "role=text_field,name=Title", Value: "${title}", Expect: `value:"${title}"`},
		{Action: "click", App: "Notes", Locator: "role=button,name=Save", Expect: "dialog"},
	}}
	progress := testkit.Subscribed(t, nc, h1.Subjects().AllFlows())
	run, err := h1.Replay(ctx, api.ReplayRequest{Flow: flow, Vars: map[string]string{"title": "From the hub"}})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome != api.FlowMet || len(run.Steps) != 2 {
		t.Fatalf("the replay through the hub: %+v %+v", run.Steps, run.Failure)
	}
	if n, _ := f.Hosts["h1"].Backend.(*sim.Desktop).Peek(notesPID, "title"); n.Value != "From the hub" {
		t.Errorf("h1's title: %q", n.Value)
	}
	if n, _ := f.Hosts["h2"].Backend.(*sim.Desktop).Peek(notesPID, "title"); n.Value == "From the hub" {
		t.Error("h2 was changed too")
	}
	if m, err := progress.NextMsg(5 * time.Second); err != nil || !strings.Contains(string(m.Data), `"started"`) {
		t.Errorf("the run's progress through the hub: %v %v", m, err)
	}
	t.Logf("replayed on h1 through the hub in %.0f ms", run.ElapsedMS)
}
