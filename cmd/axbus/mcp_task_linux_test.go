package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/mcptask"
	"github.com/axbus/axbus/internal/testdaemon"
)

// TestMCPTaskOnGTK3: an agent's task through `axbus mcp`, driven by the TypeScript SDK's client
// (fixtures/mcp/session.mjs), on the GTK3 fixture: find its window, inspect, switch a page,
// toggle, type, set a value, open a dialog, wait, close it, with the mistakes an agent makes on
// the way (a checkbox of a page no longer shown, a disabled button, a wait that cannot be met),
// each an error whose text starts with its code. All its results' text stays under 8K tokens
// (bytes/4), their structured content under 3x the text; what the actions did is checked in the
// app's own state.
func TestMCPTaskOnGTK3(t *testing.T) {
	node, modules := nodeTools(t, "@modelcontextprotocol/sdk/package.json", "the TypeScript MCP SDK")
	bin := testdaemon.Axbus(t)
	kind := headless.KindGTK3
	dd := startDaemonWith(t, func(ctx context.Context, dd *desktopDaemon) []int {
		app, err := dd.session.StartApp(ctx, kind)
		if err != nil {
			t.Fatal(err)
		}
		dd.apps[kind] = app
		return []int{app.PID}
	})
	dd.do(t, kind, map[string]any{"cmd": "add_button", "label": "Archive", "sensitive": false})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, err := mcptask.StartTS(ctx, node, modules, testdaemon.ModuleRoot(t), bin, "mcp", "--state-dir", dd.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := client.Close(); err != nil {
			t.Error(err)
		}
	}()

	f := mcptask.GTK3
	f.App, f.Disabled = headless.AppName(kind), "Archive"
	steps, err := mcptask.Run(ctx, client.Call, f)
	var table strings.Builder
	texts, structs := 0, 0
	for i, s := range steps {
		texts, structs = texts+len(s.Text), structs+len(s.Structured)
		first, _, _ := strings.Cut(s.Text, "\n")
		fmt.Fprintf(&table, "%2d %-12s %7.1f ms %6d B text %6d B structured  %.110s\n", i+1, s.Tool, s.MS, len(s.Text), len(s.Structured), first)
	}
	t.Logf("TypeScript SDK %s, %d steps:\n%stotal: %d B of text (%d tokens), %d B structured (%.2fx)",
		client.SDKVersion, len(steps), table.String(), texts, texts/4, structs, float64(structs)/float64(max(texts, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if texts/4 >= 8000 {
		t.Errorf("the results' text costs %d tokens, over 8000", texts/4)
	}
	if structs >= 3*texts {
		t.Errorf("structured content %d B, over 3x the text's %d B", structs, texts)
	}
	st := dd.state(t, kind)
	if !st.Remember || st.Name != "Ada" || st.Volume != 42 || st.Saves != 1 || st.DialogOpen || st.Notify || st.Page != 1 {
		t.Errorf("the app's state after the task: %+v", st)
	}
	if b := st.Buttons[0]; b.Clicks != 0 {
		t.Errorf("the disabled button was clicked: %+v", b)
	}
}
