package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/observer/sim"
)

// TestMCPEventsWithTheTypeScriptSDK: the TypeScript SDK's client, which checks structured
// content against the tool's output schema with Ajv, takes a page whose storm is one entry
// with its count, and reads the ×N line and the cursor in its text.
func TestMCPEventsWithTheTypeScriptSDK(t *testing.T) {
	node, modules := nodeTools(t, "@modelcontextprotocol/sdk/package.json", "the TypeScript MCP SDK")
	d := startTestDaemon(t)
	const storm = 40
	for i := range storm {
		if err := d.Backend.(*sim.Desktop).SetValue(502, "mail-status", fmt.Sprintf("status %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	testdaemon.StoredAfter(t, testdaemon.Client(t, d.Connect(t)), "mail", 0, storm, func(e *api.Envelope) bool { return e.Type == model.EventValueChanged })

	stdout := runFixtureClient(t, node, modules, "client.mjs", "events", `{"app":"Mail","exclude":[]}`, "--", testdaemon.Axbus(t), "mcp", "--state-dir", d.Dir)
	var out tsClientOutput
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("client.mjs events: %v\n%s", err, stdout)
	}
	var page testdaemon.EventsResult
	if err := json.Unmarshal(out.Result.StructuredContent, &page); err != nil || out.Result.IsError || len(page.Events) == 0 {
		t.Fatalf("events through the TypeScript SDK: %v %s", err, out.text())
	}
	last := page.Events[len(page.Events)-1]
	if last.Count != storm || !strings.Contains(out.text(), "×40") || !testdaemon.TextCursor.MatchString(out.text()) {
		t.Fatalf("events through the TypeScript SDK: the last entry %+v\n%s", last, out.text())
	}
	t.Logf("TypeScript SDK %s: %s", out.SDKVersion, out.text())
}
