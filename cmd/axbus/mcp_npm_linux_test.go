package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	ListToolsMS float64 `json:"listToolsMs"`
	Result      struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	} `json:"result"`
}

// text is the result's text content, its blocks joined by newlines.
func (o *tsClientOutput) text() string {
	var parts []string
	for _, c := range o.Result.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// TestMCPWithTheTypeScriptSDK drives `axbus mcp` with an MCP client nobody here wrote: the
// official TypeScript SDK's Client over its stdio transport (fixtures/mcp/client.mjs), which
// also checks each result's structuredContent against the tool's outputSchema with Ajv.
func TestMCPWithTheTypeScriptSDK(t *testing.T) {
	root := moduleRoot(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is missing: run `make deps` and `make tools` (make test does both)")
	}
	modules := filepath.Join(root, ".tools", "node", "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("the TypeScript MCP SDK is missing from %s: run `make tools` (make test does it)", modules)
	}
	script := filepath.Join(root, "fixtures", "mcp", "client.mjs")
	bin := buildAxbus(t)
	d := startTestDaemon(t)

	call := func(tool, args string) *tsClientOutput {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, script, tool, args, "--", bin, "mcp", "--state-dir", d.dir)
		cmd.Env = append(os.Environ(), "AXBUS_NODE_MODULES="+modules)
		cmd.WaitDelay = 5 * time.Second
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("client.mjs %s %s: %v (ctx: %v)\nstderr:\n%s\nstdout:\n%s", tool, args, err, ctx.Err(), stderr.String(), stdout.String())
		}
		var out tsClientOutput
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("client.mjs %s: its output is not the JSON object: %v\nstdout:\n%s\nstderr:\n%s", tool, err, stdout.String(), stderr.String())
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
