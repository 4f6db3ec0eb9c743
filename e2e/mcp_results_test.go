package e2e

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPResults: through the go-sdk's client, on the simulated desktop: expect is a
// condition's text; a bare id names an element of the session's last listing; an expect or a
// wait not met is an error saying why; structured content carries no listing (a wait's, asked
// for, is in the text, as inspect's) and stays within 3x the text.
func TestMCPResults(t *testing.T) {
	d := startTestDaemon(t)
	bin := testdaemon.Axbus(t)
	s, _ := testdaemon.MCPClient(t, bin, "--state-dir", d.Dir)
	var texts, structs int
	callTool := func(t *testing.T, s *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
		t.Helper()
		r := testdaemon.CallTool(t, s, name, args)
		texts, structs = texts+len(testdaemon.Text(r)), structs+testdaemon.StructuredBytes(t, r)
		return r
	}

	r := callTool(t, s, "click", map[string]any{"target": "e2"})
	if !r.IsError || !strings.HasPrefix(testdaemon.Text(r), "BAD_REQUEST: ") || !strings.Contains(testdaemon.Text(r), "Call inspect first") {
		t.Errorf("a bare id before any listing: %s", testdaemon.Text(r))
	}

	r = callTool(t, s, "inspect", map[string]any{"app": "Notes"})
	save := testdaemon.IDOf(testdaemon.Text(r), "button", "Save")
	var header struct {
		SnapshotID string `json:"snapshot_id"`
		// Elements is a count: the elements are the text's lines.
		Elements json.RawMessage `json:"elements"`
	}
	raw, _ := json.Marshal(r.StructuredContent)
	if err := json.Unmarshal(raw, &header); r.IsError || save == "" || err != nil || header.SnapshotID == "" {
		t.Fatalf("inspect: %v: %.300s", err, testdaemon.Text(r))
	}
	if n, err := strconv.Atoi(string(header.Elements)); err != nil || n == 0 || testdaemon.StructuredBytes(t, r) > 3*len(testdaemon.Text(r)) {
		t.Errorf("inspect: %d B structured (elements: %.40s) for %d B of text", testdaemon.StructuredBytes(t, r), header.Elements, len(testdaemon.Text(r)))
	}
	r = callTool(t, s, "inspect", map[string]any{"app": "Notes", "find": "role=checkbox"})
	if lines := strings.Count(strings.TrimSpace(testdaemon.Text(r)), "\n"); r.IsError || lines != 1 || testdaemon.IDOf(testdaemon.Text(r), "checkbox", "Remember me") == "" {
		t.Errorf("inspect with find: %s", testdaemon.Text(r))
	}

	// expect a condition's text; the target given with its snapshot, as a match shows it.
	saveOf := header.SnapshotID + ":" + save

	r = callTool(t, s, "click", map[string]any{"target": saveOf, "expect": `text:"Saved"`})
	if r.IsError || !strings.Contains(testdaemon.Text(r), "expect met") || strings.Contains(testdaemon.StructuredOf(t, r), `"elements"`) ||
		!strings.Contains(testdaemon.StructuredOf(t, r), `"snapshot_id":"s_`) {
		t.Errorf("click %s + expect: %d B structured for %d B of text: %s\n%s", save, testdaemon.StructuredBytes(t, r), len(testdaemon.Text(r)), testdaemon.Text(r), testdaemon.StructuredOf(t, r))
	}
	t.Logf("click + expect: %d B of text, %d B structured", len(testdaemon.Text(r)), testdaemon.StructuredBytes(t, r))

	// Not met: an error, the reason first.
	r = callTool(t, s, "click", map[string]any{"target": saveOf, "expect": `text:"Never there"`, "expect_timeout_ms": 300})
	if !r.IsError || !strings.HasPrefix(testdaemon.Text(r), `TIMEOUT: expect text:"Never there" not met in `) || !strings.Contains(testdaemon.Text(r), "suggestion: ") {
		t.Errorf("an expect not met: %s", testdaemon.Text(r))
	}
	r = callTool(t, s, "toggle", map[string]any{"target": saveOf, "expect": "state:" + save + "=checked", "expect_timeout_ms": 300})
	if !r.IsError || !strings.HasPrefix(testdaemon.Text(r), "ACTION_FAILED: toggle not done (last step perform AXPress no_effect: ") ||
		!strings.Contains(strings.SplitN(testdaemon.Text(r), "\n", 2)[0], "; expect state:"+save+"=checked timeout") {
		t.Errorf("a toggle not done, its expect not met: %s", testdaemon.Text(r))
	}
	r = callTool(t, s, "toggle", map[string]any{"target": saveOf})
	if !r.IsError || !strings.HasPrefix(testdaemon.Text(r), "ACTION_FAILED: ") || !strings.Contains(testdaemon.Text(r), "retry with policy physical.") {
		t.Errorf("a toggle not done, without expect: %s", testdaemon.Text(r))
	}
	r = callTool(t, s, "wait_for", map[string]any{"condition": `text:"Never there"`, "app": "Notes", "timeout_ms": 200})
	if !r.IsError || !strings.HasPrefix(testdaemon.Text(r), `TIMEOUT: condition text:"Never there" not met in `) {
		t.Errorf("a wait not met: %s", testdaemon.Text(r))
	}
	r = callTool(t, s, "wait_for", map[string]any{"condition": `dialog:title~`, "app": "Notes"})
	if !r.IsError || !strings.HasPrefix(testdaemon.Text(r), "BAD_REQUEST: ") || !strings.Contains(testdaemon.Text(r), "column") {
		t.Errorf("a bad condition: %s", testdaemon.Text(r))
	}

	// A wait's listing only when asked, as text; then its ids are the ones bare ids name.
	r = callTool(t, s, "wait_for", map[string]any{"condition": `element:role=checkbox,name="Remember me"`, "app": "Notes"})
	if r.IsError || strings.Contains(testdaemon.StructuredOf(t, r), `"elements"`) || testdaemon.IDOf(testdaemon.Text(r), "checkbox", "Remember me") != "" {
		t.Errorf("wait_for without listing: %s", testdaemon.Text(r))
	}
	r = callTool(t, s, "wait_for", map[string]any{"condition": `element:role=checkbox,name="Remember me"`, "app": "Notes", "listing": true})
	box := testdaemon.IDOf(testdaemon.Text(r), "checkbox", "Remember me")
	if r.IsError || box == "" || strings.Contains(testdaemon.StructuredOf(t, r), `"elements"`) {
		t.Fatalf("wait_for with listing: %s", testdaemon.Text(r))
	}
	r = callTool(t, s, "toggle", map[string]any{"target": box, "expect": "state:" + box + "=checked"})
	if r.IsError || !strings.Contains(testdaemon.Text(r), "expect met") {
		t.Fatalf("toggle %s of the wait's listing, expect naming it bare: %s", box, testdaemon.Text(r))
	}
	t.Logf("all results: %d B of text, %d B of structured content (%.1fx)", texts, structs, float64(structs)/float64(texts))
	if structs > 3*texts {
		t.Errorf("the structured content is more than 3x the text")
	}
}
