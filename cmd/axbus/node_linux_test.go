package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/testdaemon"
)

// nodeTools finds node and the node_modules that `make tools` fills (.tools/node), failing the
// test unless pkg's file (a path under node_modules) is there.
func nodeTools(t *testing.T, pkg, what string) (node, modules string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is missing: run `make deps` and `make tools` (make test does both)")
	}
	modules = filepath.Join(testdaemon.ModuleRoot(t), ".tools", "node", "node_modules")
	if _, err := os.Stat(filepath.Join(modules, pkg)); err != nil {
		t.Fatalf("%s is missing from %s: run `make tools` (make test does it)", what, modules)
	}
	return node, modules
}

// runFixtureClient runs a client of fixtures/mcp (script, with args) with node and the SDK in
// modules, and returns what it printed, failing the test when it fails.
func runFixtureClient(t *testing.T, node, modules, script string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(testdaemon.ModuleRoot(t), "fixtures", "mcp", script)}, args...)...)
	cmd.Dir = t.TempDir() // where a server writes whatever it keeps
	cmd.Env = append(os.Environ(), "AXBUS_NODE_MODULES="+modules)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %q: %v (ctx: %v)\nstderr:\n%s\nstdout:\n%s", script, args, err, ctx.Err(), stderr.String(), stdout.String())
	}
	return stdout.Bytes()
}
