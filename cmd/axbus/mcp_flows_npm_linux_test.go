package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/mcptask"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer/sim"
)

// The flow tools through an MCP client nobody here wrote, the TypeScript SDK's (issue 36):
// record_start, an action, record_stop answers the flow, replay_flow runs it again (the sim's
// title, read apart from axbus, has its value back), and a broken flow is a tool error that says
// which step.
func TestMCPFlowsWithTheTypeScriptSDK(t *testing.T) {
	node, modules := nodeTools(t, "@modelcontextprotocol/sdk/package.json", "the TypeScript MCP SDK")
	bin := testdaemon.Axbus(t)
	d := startTestDaemon(t)
	ctx := testkit.Context(t, time.Minute)
	client, err := mcptask.StartTS(ctx, node, modules, testdaemon.ModuleRoot(t), bin, "mcp", "--state-dir", d.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	call := func(tool string, args map[string]any) mcptask.Result {
		t.Helper()
		r, err := client.Call(ctx, tool, args)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return r
	}
	var started api.RecordReply
	if r := call("record_start", map[string]any{"name": "title"}); r.IsError || json.Unmarshal(r.Structured, &started) != nil || started.Recording == "" {
		t.Fatalf("record_start: %+v", r)
	}
	if r := call("set_value", map[string]any{"app": "Notes", "locator": "role=text_field,name=Title", "value": "Groceries"}); r.IsError {
		t.Fatalf("set_value: %s", r.Text)
	}
	var stopped api.RecordReply
	if r := call("record_stop", map[string]any{"recording": started.Recording}); r.IsError || json.Unmarshal(r.Structured, &stopped) != nil || stopped.Flow == nil || len(stopped.Flow.Steps) != 1 {
		t.Fatalf("record_stop: %+v", r)
	}
	desk := d.Backend.(*sim.Desktop)
	if _, err := testdaemon.Client(t, d.Connect(t)).Act(ctx, "set_value", api.ActionRequest{Locator: "role=text_field,name=Title", AppTarget: api.AppTarget{App: "Notes"}, Value: "Other"}); err != nil {
		t.Fatal(err)
	}
	if r := call("replay_flow", map[string]any{"flow": stopped.Flow}); r.IsError || !strings.Contains(r.Text, ": met in ") {
		t.Fatalf("replay_flow: %s", r.Text)
	}
	if n, _ := desk.Peek(501, "title"); n.Value != "Groceries" {
		t.Fatalf("the title after replay_flow: %q", n.Value)
	}
	broken := *stopped.Flow
	broken.Steps = []api.FlowStep{stopped.Flow.Steps[0]}
	broken.Steps[0].Locator, broken.Steps[0].TimeoutMS = "role=text_field,name=Heading", 300
	r := call("replay_flow", map[string]any{"flow": broken})
	if !r.IsError || !strings.Contains(r.Text, "step 1 (set_value role=text_field,name=Heading) failed") {
		t.Fatalf("a broken flow: error %v: %s", r.IsError, r.Text)
	}
	t.Logf("a broken flow, as the agent reads it: %s", model.Excerpt(r.Text))
}
