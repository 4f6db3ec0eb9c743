package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axbus/axbus/fixtures/web"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/textform"
)

// TestInspectTextAgainstPlaywrightMCP: the text an agent reads of a web page (inspect of the
// page's web area, textform's form, what the MCP inspect tool returns) spends no more bytes a line
// than Playwright MCP's browser_snapshot of the same page, and no more in all. Both browsers are
// Debian's Chromium on page.html, served over HTTP here: ours in the headless desktop read through
// AT-SPI, Playwright MCP's (`make tools` installs it) headless, driven by the TypeScript SDK's
// client (fixtures/mcp/calls.mjs).
func TestInspectTextAgainstPlaywrightMCP(t *testing.T) {
	node, modules := nodeTools(t, "@playwright/mcp/cli.js", "Playwright MCP")
	srv := httptest.NewServer(http.FileServer(http.FS(web.FS)))
	t.Cleanup(srv.Close)
	page := srv.URL + "/page.html"

	dd := startWebDaemon(t, page)
	insp := dd.page(t)
	var ours strings.Builder
	if err := textform.Of(insp)(&ours); err != nil {
		t.Fatal(err)
	}
	ourLines := strings.Split(strings.TrimSuffix(ours.String(), "\n"), "\n")[1:] // after the header

	snapshot := playwrightSnapshot(t, node, modules, page)
	theirLines := strings.Split(snapshot, "\n")

	ourBytes, theirBytes := linesBytes(ourLines), linesBytes(theirLines)
	ourPerLine, theirPerLine := float64(ourBytes)/float64(len(ourLines)), float64(theirBytes)/float64(len(theirLines))
	t.Logf("axbus inspect: %d element lines, %d bytes, %.1f bytes a line, %.1f a listed element (%d); %d bytes with the header",
		len(ourLines), ourBytes, ourPerLine, float64(ourBytes)/float64(len(insp.Elements)), len(insp.Elements), ours.Len())
	refs := strings.Count(snapshot, "[ref=")
	t.Logf("Playwright MCP browser_snapshot: %d lines, %d bytes, %.1f bytes a line, %.1f an element with a ref (%d)",
		len(theirLines), theirBytes, theirPerLine, float64(theirBytes)/float64(refs), refs)
	for _, want := range []string{` button "Save"`, ` checkbox "Remember me"`, ` radio "Small" [checked]`, ` cell "Apples"`, ` button "Frame button"`} {
		if !strings.Contains(ours.String(), want) {
			t.Errorf("our text lacks %q:\n%s", want, ours.String())
		}
	}
	if !strings.Contains(snapshot, `button "Save"`) {
		t.Fatalf("Playwright MCP's snapshot lacks the Save button:\n%s", snapshot)
	}
	if ourPerLine > theirPerLine || ourBytes > theirBytes {
		t.Fatalf("ours: %.1f bytes a line, %d in all; Playwright MCP's: %.1f, %d\nours:\n%s\ntheirs:\n%s",
			ourPerLine, ourBytes, theirPerLine, theirBytes, ours.String(), snapshot)
	}
}

// playwrightSnapshot navigates Playwright MCP (on Debian's Chromium, headless) to page and returns
// its browser_snapshot's YAML, a line an element.
func playwrightSnapshot(t *testing.T, node, modules, page string) string {
	t.Helper()
	calls, _ := json.Marshal([]map[string]any{
		{"name": "browser_navigate", "arguments": map[string]string{"url": page}},
		{"name": "browser_snapshot"},
	})
	stdout := runFixtureClient(t, node, modules, "calls.mjs", string(calls), "--", node, filepath.Join(modules, "@playwright", "mcp", "cli.js"),
		"--headless", "--isolated", "--no-sandbox", "--executable-path", headless.Chromium, "--output-dir", t.TempDir())
	var out struct {
		Calls []struct {
			Name   string `json:"name"`
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				IsError bool `json:"isError"`
			} `json:"result"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(stdout, &out); err != nil || len(out.Calls) != 2 {
		t.Fatalf("calls.mjs printed %s (%v)", stdout, err)
	}
	snap := out.Calls[1].Result
	if snap.IsError || len(snap.Content) == 0 {
		t.Fatalf("browser_snapshot: %+v", snap)
	}
	_, yaml, ok := strings.Cut(snap.Content[0].Text, "```yaml\n")
	yaml, _, closed := strings.Cut(yaml, "```")
	if !ok || !closed {
		t.Fatalf("browser_snapshot has no YAML block:\n%s", snap.Content[0].Text)
	}
	return strings.TrimSuffix(yaml, "\n")
}

// linesBytes is what lines weigh, each with its newline.
func linesBytes(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	return n
}
