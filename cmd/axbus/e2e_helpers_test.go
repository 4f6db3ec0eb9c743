package main

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) { testdaemon.RemoveAxbus(); os.Exit(code) }))
}

// testDaemon is a real daemon (testdaemon.Daemon) that the CLI under test talks to.
type testDaemon struct{ *testdaemon.Daemon }

func startTestDaemon(t *testing.T) *testDaemon { return &testDaemon{testdaemon.StartDemo(t)} }

// startSimDaemon starts a daemon on the simulated desktop with cfg.
func startSimDaemon(t *testing.T, cfg daemon.Config) *testDaemon {
	return &testDaemon{testdaemon.StartSim(t, cfg)}
}

// cli runs one axbus command line in-process against the daemon and returns what it printed
// and its exit status. The state dir flag goes right after the command name.
func (d *testDaemon) cli(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	full := append([]string{args[0], "--state-dir", d.Dir}, args[1:]...)
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code = run(ctx, full, &out, &errb)
	return out.String(), errb.String(), code
}
