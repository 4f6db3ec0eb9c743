package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/axbus/axbus/internal/mcptask"
	"github.com/axbus/axbus/internal/testdaemon"
)

// tsClientOutput is what fixtures/mcp/client.mjs prints: the tools as the TypeScript SDK listed
// them and one tool's result as the SDK returned it.
type tsClientOutput struct {
	SDKVersion string `json:"sdkVersion"`
	Tools      []struct {
		Name            string `json:"name"`
		HasInputSchema  bool   `json:"hasInputSchema"`
		HasOutputSchema bool   `json:"hasOutputSchema"`
		ReadOnlyHint    *bool  `json:"readOnlyHint"`
		DestructiveHint *bool  `json:"destructiveHint"`
		Bytes           int    `json:"bytes"`
	} `json:"tools"`
	ListToolsMS float64            `json:"listToolsMs"`
	Result      mcptask.WireResult `json:"result"`
}

// text is the result's text content, its blocks joined by newlines.
func (o *tsClientOutput) text() string { return o.Result.Text() }

// TestMCPWithTheTypeScriptSDK drives `axbus mcp` with an MCP client nobody here wrote: the
// official TypeScript SDK's Client over its stdio transport (fixtures/mcp/client.mjs), which
// measures the tool list as it receives it (its listing's time, the bytes a model is sent).
func TestMCPWithTheTypeScriptSDK(t *testing.T) {
	node, modules := nodeTools(t, "@modelcontextprotocol/sdk/package.json", "the TypeScript MCP SDK")
	bin := testdaemon.Axbus(t)
	d := startTestDaemon(t)

	call := func(tool, args string) *tsClientOutput {
		t.Helper()
		stdout := runFixtureClient(t, node, modules, "client.mjs", tool, args, "--", bin, "mcp", "--state-dir", d.Dir)
		var out tsClientOutput
		if err := json.Unmarshal(stdout, &out); err != nil {
			t.Fatalf("client.mjs %s: its output is not the JSON object: %v\nstdout:\n%s", tool, err, stdout)
		}
		if out.Result.IsError {
			t.Fatalf("%s %s: the tool result is an error:\n%s", tool, args, out.text())
		}
		return &out
	}

	apps := call("list_apps", `{}`)
	var names []string
	size, outputs := 0, 0
	for _, tl := range apps.Tools {
		names = append(names, tl.Name)
		size += tl.Bytes
		if tl.HasOutputSchema {
			outputs++
		}
	}
	t.Logf("TypeScript SDK %s: listTools %.0f ms; %d tools, %d B of names, descriptions and input schemas (%d tokens), %d output schemas",
		apps.SDKVersion, apps.ListToolsMS, len(apps.Tools), size, size/4, outputs)
	if size/4 >= 12000 {
		t.Errorf("the tool list costs %d tokens, over 12000", size/4)
	}
	t.Logf("tools: %s", strings.Join(names, " "))
	for _, want := range []string{"list_apps", "inspect", "click", "wait_for"} {
		found := false
		for _, tl := range apps.Tools {
			if tl.Name != want {
				continue
			}
			found = true
			if !tl.HasInputSchema {
				t.Errorf("tool %s has no input schema", want)
			}
			readOnly := tl.ReadOnlyHint != nil && *tl.ReadOnlyHint
			switch want {
			case "list_apps", "inspect":
				if !readOnly {
					t.Errorf("tool %s: readOnlyHint %v, want true", want, tl.ReadOnlyHint)
				}
			case "click":
				if readOnly {
					t.Errorf("tool click claims readOnlyHint true")
				}
			}
		}
		if !found {
			t.Errorf("tool %s is not listed (tools: %s)", want, strings.Join(names, " "))
		}
	}
	if !strings.Contains(apps.text(), "Notes") {
		t.Errorf("list_apps text content does not mention Notes:\n%s", apps.text())
	}
	if !bytes.Contains(apps.Result.StructuredContent, []byte(`"Notes"`)) {
		t.Errorf("list_apps structuredContent does not mention Notes: %s", apps.Result.StructuredContent)
	}

	insp := call("inspect", `{"app":"Notes"}`)
	text := insp.text()
	saveLine := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, `"Save"`) && strings.Contains(strings.ToLower(line), "button") {
			saveLine = line
			break
		}
	}
	if saveLine == "" {
		t.Errorf("inspect text content has no line naming the Save button:\n%s", text)
	}
	var snap struct {
		SnapshotID string `json:"snapshot_id"`
	}
	if err := json.Unmarshal(insp.Result.StructuredContent, &snap); err != nil || snap.SnapshotID == "" {
		t.Fatalf("inspect structuredContent has no snapshot_id (%v): %s", err, insp.Result.StructuredContent)
	}
	if !strings.Contains(text, snap.SnapshotID) {
		t.Errorf("inspect text content does not name snapshot %s:\n%s", snap.SnapshotID, text)
	}
}
