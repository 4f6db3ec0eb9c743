package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/axbus/axbus/internal/testdaemon"
)

// mcpConfigOf runs the built `axbus mcp config` with args and returns what it printed.
func mcpConfigOf(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, append([]string{"mcp", "config"}, args...)...).Output()
	if err != nil {
		t.Fatalf("axbus mcp config %v: %v", args, err)
	}
	return string(out)
}

// configuredServer is the server one client's configuration names.
type configuredServer struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// TestMCPConfig: `axbus mcp config` prints, for each common client, the JSON that starts this
// binary (its absolute path) on the daemon of the state dir, or the server and credentials
// given; --client prints one client's alone, as JSON; and the server it names runs: the go-sdk's
// client, started exactly as the configuration says, lists the apps.
func TestMCPConfig(t *testing.T) {
	d := startTestDaemon(t)
	bin := testdaemon.Axbus(t)
	abs, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Fatal(err)
	}

	all := mcpConfigOf(t, bin, "--state-dir", d.Dir)
	for _, want := range []string{"// claude-desktop: ", "// claude-code: ", "// vscode: ", "// cursor: "} {
		if !strings.Contains(all, want) {
			t.Errorf("mcp config lacks %q:\n%s", want, all)
		}
	}
	keys := map[string]string{"claude-desktop": "mcpServers", "claude-code": "mcpServers", "vscode": "servers", "cursor": "mcpServers"}
	for client, key := range keys {
		var cfg map[string]map[string]configuredServer
		if err := json.Unmarshal([]byte(mcpConfigOf(t, bin, "--client", client, "--state-dir", d.Dir)), &cfg); err != nil {
			t.Fatalf("--client %s: not JSON: %v", client, err)
		}
		got := cfg[key]["axbus"]
		if got.Command != abs || !slices.Equal(got.Args, []string{"mcp", "--state-dir", d.Dir}) ||
			(got.Type == "stdio") != (client == "vscode" || client == "claude-code") {
			t.Errorf("--client %s: %+v; want %s %s with mcp --state-dir %s", client, cfg, key, abs, d.Dir)
		}
		if client == "vscode" {
			session := testdaemon.MCPConnect(t, exec.Command(got.Command, got.Args...), nil)
			if r := testdaemon.CallTool(t, session, "list_apps", map[string]any{}); r.IsError || !strings.Contains(testdaemon.Text(r), "Notes") {
				t.Fatalf("the configured server: list_apps: %s", testdaemon.Text(r))
			}
		}
	}

	creds := filepath.Join(t.TempDir(), "agent.creds")
	if err := os.WriteFile(creds, []byte("-"), 0o600); err != nil {
		t.Fatal(err)
	}
	var cfg map[string]map[string]configuredServer
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, creds)
	if err := json.Unmarshal([]byte(mcpConfigOf(t, bin, "--client", "cursor", "-s", "nats://hub.example:4222", "--creds", rel)), &cfg); err != nil {
		t.Fatal(err)
	}
	if got := cfg["mcpServers"]["axbus"].Args; !slices.Equal(got, []string{"mcp", "--server", "nats://hub.example:4222", "--creds", creds}) {
		t.Errorf("with a server and credentials: args %q", got)
	}
	var stderr strings.Builder
	if code := run(context.Background(), []string{"mcp", "config", "--client", "notepad"}, io.Discard, &stderr); code != exitUsage {
		t.Errorf("an unknown client: exit %d %s", code, stderr.String())
	}
}
