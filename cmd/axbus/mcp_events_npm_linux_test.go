package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
)

// TestMCPEventsWithTheTypeScriptSDK: the TypeScript SDK's client, which checks structured
// content against the tool's output schema with Ajv, takes a page whose storm is one entry
// with its count, and reads the ×N line and the cursor in its text.
func TestMCPEventsWithTheTypeScriptSDK(t *testing.T) {
	root := moduleRoot(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is missing: run `make deps` and `make tools` (make test does both)")
	}
	d := startTestDaemon(t)
	const storm = 40
	for i := range storm {
		if err := d.Backend.(*sim.Desktop).SetValue(502, "mail-status", fmt.Sprintf("status %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	storedAfter(t, busClient(t, d.connect(t)), "mail", 0, storm, func(e *api.Envelope) bool { return e.Type == observer.EventValueChanged })

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(root, "fixtures", "mcp", "client.mjs"), "events", `{"app":"Mail","exclude":[]}`,
		"--", buildAxbus(t), "mcp", "--state-dir", d.dir)
	cmd.Env = append(os.Environ(), "AXBUS_NODE_MODULES="+filepath.Join(root, ".tools", "node", "node_modules"))
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("client.mjs events: %v\nstderr:\n%s", err, stderr.String())
	}
	var out tsClientOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("client.mjs events: %v\n%s", err, stdout.String())
	}
	var page eventsResult
	if err := json.Unmarshal(out.Result.StructuredContent, &page); err != nil || out.Result.IsError {
		t.Fatalf("events through the TypeScript SDK: %v %s", err, out.text())
	}
	last := page.Events[len(page.Events)-1]
	if last.Count != storm || !strings.Contains(out.text(), "×40") || !textCursor.MatchString(out.text()) {
		t.Fatalf("events through the TypeScript SDK: the last entry %+v\n%s", last, out.text())
	}
	t.Logf("TypeScript SDK %s: %s", out.SDKVersion, out.text())
}
