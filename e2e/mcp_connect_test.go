package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/pace"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/mcpserver"
)

// untilTool calls a tool every 50 ms until want holds of its result, for at most 15 s, and
// returns how long that took.
func untilTool(t *testing.T, s *mcp.ClientSession, name string, want func(*mcp.CallToolResult) bool) time.Duration {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	var last *mcp.CallToolResult
	err := backoff.Retry(func() error {
		if last = testdaemon.CallTool(t, s, name, map[string]any{}); !want(last) {
			return errors.New("not yet")
		}
		return nil
	}, pace.Every(ctx, 50*time.Millisecond, 15*time.Second))
	if err != nil {
		t.Fatalf("%s, for 15 s: %s", name, testdaemon.Text(last))
	}
	return time.Since(start)
}

// unavailable says a result is the UNAVAILABLE of a daemon away, telling how to start it.
func unavailable(r *mcp.CallToolResult) bool {
	return r.IsError && strings.HasPrefix(testdaemon.Text(r), "UNAVAILABLE: ") && strings.Contains(testdaemon.Text(r), "axbus serve") &&
		strings.Contains(testdaemon.Text(r), "connects by itself")
}

// TestMCPStartsWithoutADaemon: with no daemon, `axbus mcp` answers initialize and lists its
// tools; a tool says UNAVAILABLE and how to start the daemon; once one starts, the same
// session's next call answers, without a restart.
func TestMCPStartsWithoutADaemon(t *testing.T) {
	bin := testdaemon.Axbus(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "mcp", "--state-dir", dir)
	cmd.Stderr = os.Stderr
	s := testdaemon.MCPConnect(t, cmd, nil)
	list, err := s.ListTools(context.Background(), nil)
	if err != nil || len(list.Tools) != mcpserver.ToolCount() {
		t.Fatalf("tools/list without a daemon: %v, %d tools", err, len(list.Tools))
	}
	if r := testdaemon.CallTool(t, s, "list_apps", map[string]any{}); !unavailable(r) {
		t.Fatalf("list_apps without a daemon: %s", testdaemon.Text(r))
	}
	d, err := daemon.Start(daemon.Config{Backend: "sim", Desktop: "demo", StateDir: dir, Listen: "127.0.0.1:0", Host: "testhost"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeDaemon(t, d) })
	start := time.Now()
	if r := testdaemon.CallTool(t, s, "list_apps", map[string]any{}); r.IsError || !strings.Contains(testdaemon.Text(r), "Notes") {
		t.Fatalf("list_apps, the daemon started: %s", testdaemon.Text(r))
	}
	t.Logf("the daemon started: the next call answered in %v", time.Since(start).Round(time.Millisecond))
}

// TestMCPReconnects: the daemon stops; the MCP server stays, its tools saying UNAVAILABLE; the
// daemon starts again on its state dir and the same session's next call answers.
func TestMCPReconnects(t *testing.T) {
	d := startTestDaemon(t)
	bin := testdaemon.Axbus(t)
	cmd := exec.Command(bin, "mcp", "--state-dir", d.Dir)
	cmd.Stderr = os.Stderr
	s := testdaemon.MCPConnect(t, cmd, nil)
	if r := testdaemon.CallTool(t, s, "list_apps", map[string]any{}); r.IsError {
		t.Fatalf("list_apps: %s", testdaemon.Text(r))
	}
	listen := strings.TrimPrefix(d.Server.ClientURL(), "nats://")
	closeDaemon(t, d.Daemon.Daemon)
	untilTool(t, s, "list_apps", unavailable)
	again, err := daemon.Start(daemon.Config{Backend: "sim", Desktop: "demo", StateDir: d.Dir, Listen: listen, Host: "testhost"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeDaemon(t, again) })
	start := time.Now()
	if r := testdaemon.CallTool(t, s, "list_apps", map[string]any{}); r.IsError || !strings.Contains(testdaemon.Text(r), "Notes") {
		t.Fatalf("list_apps, the daemon restarted: %s", testdaemon.Text(r))
	}
	if cmd.ProcessState != nil {
		t.Fatalf("axbus mcp ended: %v", cmd.ProcessState)
	}
	t.Logf("the daemon restarted: the next call answered in %v", time.Since(start).Round(time.Millisecond))
}

func closeDaemon(t *testing.T, d *daemon.Daemon) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.Close(ctx); err != nil {
		t.Error(err)
	}
}
