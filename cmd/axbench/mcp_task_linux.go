package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/mcptask"
)

func init() {
	platformSuites = append(platformSuites, suite{"mcp-task", benchMCPTask})
}

// benchMCPTask: the agent's task of internal/mcptask (the test TestMCPTaskOnGTK3 asserts it) on
// the GTK3 fixture, through `axbus mcp` driven by the TypeScript SDK's client: what its results
// cost an agent to read, and each call's latency as the client saw it.
func benchMCPTask() ([]row, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node: %w (run make deps)", err)
	}
	s, app, closeDesktop, err := desktop(headless.KindGTK3)
	if err != nil {
		return nil, err
	}
	defer closeDesktop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := app.Do(ctx, map[string]any{"cmd": "add_button", "label": "Archive", "sensitive": false}); err != nil {
		return nil, err
	}
	d, stop, err := startWithClient(sessionConfig(s))
	if err != nil {
		return nil, err
	}
	defer stop()
	client, err := mcptask.StartTS(ctx, node, filepath.Join(".tools", "node", "node_modules"), ".", *axbusBin, "mcp", "--state-dir", d.dir)
	if err != nil {
		return nil, fmt.Errorf("%w (run make tools and make build)", err)
	}
	defer client.Close()
	f := mcptask.GTK3
	f.App, f.Disabled = headless.AppName(headless.KindGTK3), "Archive"
	steps, err := mcptask.Run(ctx, client.Call, f)
	if err != nil {
		return nil, err
	}
	texts, structs, total := 0, 0, 0.0
	var each []string
	for _, st := range steps {
		texts, structs, total = texts+len(st.Text), structs+len(st.Structured), total+st.MS
		each = append(each, fmt.Sprintf("%s %.1f", st.Tool, st.MS))
	}
	return []row{
		{"mcp", fmt.Sprintf("a %d-call task on the GTK3 fixture: its results' text, tokens (bytes/4)", len(steps)), fmt.Sprint(texts / 4),
			fmt.Sprintf("%d B of text; the TypeScript SDK %s over stdio", texts, client.SDKVersion), "< 8000", verdict(texts/4 < 8000)},
		{"mcp", "the same task: structured content against its text", fmt.Sprintf("%.2fx", float64(structs)/float64(max(texts, 1))),
			fmt.Sprintf("%d B structured", structs), "< 3x", verdict(structs < 3*texts)},
		{"mcp", "the same task: every call's latency, in all", fmt.Sprintf("%.0f ms", total), "ms each: " + strings.Join(each, ", "), "", ""},
	}, nil
}
