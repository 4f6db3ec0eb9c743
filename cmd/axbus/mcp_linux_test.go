package main

import (
	"bytes"
	"context"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/mcpserver"
)

// TestMCPOnGTK3: the go-sdk's own client runs the built `axbus mcp` against a daemon on the
// headless desktop: inspect the GTK3 fixture, click Save by the id the inspection gave with
// an expect, wait for the dialog; the app itself witnesses the click.
func TestMCPOnGTK3(t *testing.T) {
	dd := startDesktopDaemon(t, headless.KindGTK3)
	bin := testdaemon.Axbus(t)
	s, _ := testdaemon.MCPClient(t, bin, "--state-dir", dd.Dir)
	pid := dd.apps[headless.KindGTK3].PID
	list, err := s.ListTools(context.Background(), nil)
	if err != nil || len(list.Tools) != mcpserver.ToolCount() {
		t.Fatalf("tools/list: %d tools, %v", len(list.Tools), err)
	}
	for _, tool := range list.Tools {
		if tool.InputSchema == nil {
			t.Fatalf("tool %s without its input schema", tool.Name)
		}
	}

	// The text and structured content of every call but the screenshot's (an image).
	var texts, structs int
	callTool := func(t *testing.T, s *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
		t.Helper()
		r := testdaemon.CallTool(t, s, name, args)
		if name != "screenshot" {
			texts, structs = texts+len(testdaemon.Text(r)), structs+testdaemon.StructuredBytes(t, r)
		}
		return r
	}
	r := callTool(t, s, "inspect", map[string]any{"pid": pid})
	save := testdaemon.IDOf(testdaemon.Text(r), "button", "Save")
	if r.IsError || save == "" {
		t.Fatalf("inspect: %.2000s", testdaemon.Text(r))
	}
	saves := dd.state(t, headless.KindGTK3).Saves
	r = callTool(t, s, "click", map[string]any{"target": save, "expect": `text:"Saved"`})
	reply := testdaemon.Structured[api.ActionReply](t, r)
	if r.IsError || reply.Expect == nil || reply.Expect.Outcome != api.WaitMet {
		t.Fatalf("click Save: %s", testdaemon.Text(r))
	}
	dd.eventually(t, headless.KindGTK3, "the app counts the save", func(st headless.State) bool { return st.Saves == saves+1 })

	r = callTool(t, s, "wait_for", map[string]any{"condition": `dialog:title~Saved`, "pid": pid, "timeout_ms": 5000})
	if w := testdaemon.Structured[api.WaitResult](t, r); r.IsError || w.Outcome != api.WaitMet || w.Window == nil {
		t.Fatalf("wait_for the dialog: %s", testdaemon.Text(r))
	}
	dd.do(t, headless.KindGTK3, map[string]any{"cmd": "close_dialog"})

	r = callTool(t, s, "wait_for", map[string]any{"condition": `dialog:title~`, "pid": pid})
	if !r.IsError || !strings.HasPrefix(testdaemon.Text(r), "BAD_REQUEST: ") || !strings.Contains(testdaemon.Text(r), "column") {
		t.Fatalf("a bad condition: %s", testdaemon.Text(r))
	}
	r = callTool(t, s, "read_text", map[string]any{"pid": pid})
	if r.IsError || !strings.Contains(testdaemon.Text(r), "Save") || strings.Contains(testdaemon.Text(r), "hunter2") {
		t.Fatalf("read_text: %.500s", testdaemon.Text(r))
	}

	// Beyond the tree: the screenshot as an image, the clipboard, a window moved.
	r = callTool(t, s, "screenshot", map[string]any{"pid": pid})
	shot := testdaemon.Structured[api.ScreenshotReply](t, r)
	var img *mcp.ImageContent
	for _, c := range r.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			img = ic
		}
	}
	if r.IsError || img == nil || img.MIMEType != "image/png" {
		t.Fatalf("screenshot: %s", testdaemon.Text(r))
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(img.Data)); err != nil || cfg.Width != shot.Width || cfg.Height != shot.Height || len(img.Data) != shot.Bytes {
		t.Fatalf("screenshot: image %+v (%v), %d bytes; the reply says %dx%d, %d bytes", cfg, err, len(img.Data), shot.Width, shot.Height, shot.Bytes)
	}
	const clip = "MCP ✓ 日本語"
	if r = callTool(t, s, "clipboard_set", map[string]any{"text": clip}); r.IsError {
		t.Fatalf("clipboard_set: %s", testdaemon.Text(r))
	}
	if got, err := dd.x11(t, "", "xclip", "-o", "-selection", "clipboard"); err != nil || got != clip {
		t.Fatalf("xclip reads %q (%v) after clipboard_set", got, err)
	}
	if r = callTool(t, s, "clipboard_get", map[string]any{}); r.IsError || testdaemon.Structured[api.ClipboardReply](t, r).Text != clip {
		t.Fatalf("clipboard_get: %s", testdaemon.Text(r))
	}
	r = callTool(t, s, "window_move", map[string]any{"pid": pid, "x": 30, "y": 20})
	if w := testdaemon.Structured[api.WindowReply](t, r); r.IsError || w.After == nil || w.After.Bounds.X != 30 || w.After.Bounds.Y != 20 {
		t.Fatalf("window_move: %s", testdaemon.Text(r))
	}
	t.Logf("all results but the screenshot: %d B of text, %d B of structured content (%.1fx)", texts, structs, float64(structs)/float64(texts))
	if structs > 3*texts {
		t.Errorf("the structured content is more than 3x the text")
	}
	t.Logf("pid %s: inspect, click + expect, wait_for, read_text, screenshot, clipboard, window_move through MCP", strconv.Itoa(pid))
}
