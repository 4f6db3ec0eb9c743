package main

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// idOf is the id of the first line of a listing's text that names role and name (`e2 button
// "Save"`), or "".
func idOf(listing, role, name string) string {
	m := regexp.MustCompile(`(?m)^\s*(e\d+) ` + role + ` "` + regexp.QuoteMeta(name) + `"`).FindStringSubmatch(listing)
	if m == nil {
		return ""
	}
	return m[1]
}

// structuredOf is a result's structured content as JSON; structuredBytes its size.
func structuredOf(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	return string(mustJSONOf(t, r.StructuredContent))
}

func structuredBytes(t *testing.T, r *mcp.CallToolResult) int { return len(structuredOf(t, r)) }

// TestMCPResults: through the go-sdk's client, on the simulated desktop: expect is a
// condition's text; a bare id names an element of the session's last listing; an expect or a
// wait not met is an error saying why; structured content carries no listing (a wait's, asked
// for, is in the text, as inspect's) and stays within 3x the text.
func TestMCPResults(t *testing.T) {
	d := startTestDaemon(t)
	bin := testdaemon.Axbus(t)
	s, _ := mcpClient(t, bin, "--state-dir", d.Dir)
	var texts, structs int
	callTool := func(t *testing.T, s *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
		t.Helper()
		r := callTool(t, s, name, args)
		texts, structs = texts+len(text(r)), structs+structuredBytes(t, r)
		return r
	}

	r := callTool(t, s, "click", map[string]any{"target": "e2"})
	if !r.IsError || !strings.HasPrefix(text(r), "BAD_REQUEST: ") || !strings.Contains(text(r), "Call inspect first") {
		t.Errorf("a bare id before any listing: %s", text(r))
	}

	r = callTool(t, s, "inspect", map[string]any{"app": "Notes"})
	save := idOf(text(r), "button", "Save")
	var header struct {
		SnapshotID string `json:"snapshot_id"`
		// Elements is a count: the elements are the text's lines.
		Elements json.RawMessage `json:"elements"`
	}
	raw, _ := json.Marshal(r.StructuredContent)
	if err := json.Unmarshal(raw, &header); r.IsError || save == "" || err != nil || header.SnapshotID == "" {
		t.Fatalf("inspect: %v: %.300s", err, text(r))
	}
	if n, err := strconv.Atoi(string(header.Elements)); err != nil || n == 0 || structuredBytes(t, r) > 3*len(text(r)) {
		t.Errorf("inspect: %d B structured (elements: %.40s) for %d B of text", structuredBytes(t, r), header.Elements, len(text(r)))
	}
	r = callTool(t, s, "inspect", map[string]any{"app": "Notes", "find": "role=checkbox"})
	if lines := strings.Count(strings.TrimSpace(text(r)), "\n"); r.IsError || lines != 1 || idOf(text(r), "checkbox", "Remember me") == "" {
		t.Errorf("inspect with find: %s", text(r))
	}

	// expect a condition's text; the target given with its snapshot, as a match shows it.
	saveOf := header.SnapshotID + ":" + save

	r = callTool(t, s, "click", map[string]any{"target": saveOf, "expect": `text:"Saved"`})
	if r.IsError || !strings.Contains(text(r), "expect met") || strings.Contains(structuredOf(t, r), `"elements"`) ||
		!strings.Contains(structuredOf(t, r), `"snapshot_id":"s_`) {
		t.Errorf("click %s + expect: %d B structured for %d B of text: %s\n%s", save, structuredBytes(t, r), len(text(r)), text(r), structuredOf(t, r))
	}
	t.Logf("click + expect: %d B of text, %d B structured", len(text(r)), structuredBytes(t, r))

	// Not met: an error, the reason first.
	r = callTool(t, s, "click", map[string]any{"target": saveOf, "expect": `text:"Never there"`, "expect_timeout_ms": 300})
	if !r.IsError || !strings.HasPrefix(text(r), `TIMEOUT: expect text:"Never there" not met in `) || !strings.Contains(text(r), "suggestion: ") {
		t.Errorf("an expect not met: %s", text(r))
	}
	r = callTool(t, s, "toggle", map[string]any{"target": saveOf, "expect": "state:" + save + "=checked", "expect_timeout_ms": 300})
	if !r.IsError || !strings.HasPrefix(text(r), "ACTION_FAILED: toggle not done (last step perform AXPress no_effect: ") ||
		!strings.Contains(strings.SplitN(text(r), "\n", 2)[0], "; expect state:"+save+"=checked timeout") {
		t.Errorf("a toggle not done, its expect not met: %s", text(r))
	}
	r = callTool(t, s, "toggle", map[string]any{"target": saveOf})
	if !r.IsError || !strings.HasPrefix(text(r), "ACTION_FAILED: ") || !strings.Contains(text(r), "retry with policy physical.") {
		t.Errorf("a toggle not done, without expect: %s", text(r))
	}
	r = callTool(t, s, "wait_for", map[string]any{"condition": `text:"Never there"`, "app": "Notes", "timeout_ms": 200})
	if !r.IsError || !strings.HasPrefix(text(r), `TIMEOUT: condition text:"Never there" not met in `) {
		t.Errorf("a wait not met: %s", text(r))
	}
	r = callTool(t, s, "wait_for", map[string]any{"condition": `dialog:title~`, "app": "Notes"})
	if !r.IsError || !strings.HasPrefix(text(r), "BAD_REQUEST: ") || !strings.Contains(text(r), "column") {
		t.Errorf("a bad condition: %s", text(r))
	}

	// A wait's listing only when asked, as text; then its ids are the ones bare ids name.
	r = callTool(t, s, "wait_for", map[string]any{"condition": `element:role=checkbox,name="Remember me"`, "app": "Notes"})
	if r.IsError || strings.Contains(structuredOf(t, r), `"elements"`) || idOf(text(r), "checkbox", "Remember me") != "" {
		t.Errorf("wait_for without listing: %s", text(r))
	}
	r = callTool(t, s, "wait_for", map[string]any{"condition": `element:role=checkbox,name="Remember me"`, "app": "Notes", "listing": true})
	box := idOf(text(r), "checkbox", "Remember me")
	if r.IsError || box == "" || strings.Contains(structuredOf(t, r), `"elements"`) {
		t.Fatalf("wait_for with listing: %s", text(r))
	}
	r = callTool(t, s, "toggle", map[string]any{"target": box, "expect": "state:" + box + "=checked"})
	if r.IsError || !strings.Contains(text(r), "expect met") {
		t.Fatalf("toggle %s of the wait's listing, expect naming it bare: %s", box, text(r))
	}
	t.Logf("all results: %d B of text, %d B of structured content (%.1fx)", texts, structs, float64(structs)/float64(texts))
	if structs > 3*texts {
		t.Errorf("the structured content is more than 3x the text")
	}
}
