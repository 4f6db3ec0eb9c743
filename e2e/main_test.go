package e2e

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"go.uber.org/goleak"

	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
)

// axbus is the binary every command line of these suites runs, built once.
var axbus string

func TestMain(m *testing.M) {
	var err error
	if axbus, err = testdaemon.BuildAxbus(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) { testdaemon.RemoveAxbus(); os.Exit(code) }))
}

// The exit statuses the suites expect, from the code table as the CLI takes them.
var (
	exitUsage    = model.CodeBadRequest.Info().Exit
	exitNotFound = model.CodeAppNotFound.Info().Exit
)

// run runs one command line of the axbus binary and returns its exit status; ctx's end
// interrupts it (SIGINT), as a person's Ctrl-C would.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := exec.CommandContext(ctx, axbus, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	if cmd.ProcessState != nil { // it ran: its status, also when ctx's end asked it to stop
		return cmd.ProcessState.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stderr, "e2e: %v\n", err)
	}
	return -1
}

// runIn runs one command line, as a shell would, and returns its output and status.
func runIn(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return testdaemon.Capture(run, args...)
}

// testDaemon is a real daemon that the suites' command lines reach through its state dir.
type testDaemon struct{ *testdaemon.Daemon }

func startTestDaemon(t *testing.T) *testDaemon { return &testDaemon{testdaemon.StartDemo(t)} }

// startSimDaemon starts a daemon on the simulated desktop with cfg.
func startSimDaemon(t *testing.T, cfg daemon.Config) *testDaemon {
	return &testDaemon{testdaemon.StartSim(t, cfg)}
}

// cli runs one axbus command line against the daemon; the state dir flag goes right after the
// command name.
func (d *testDaemon) cli(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runIn(t, append([]string{args[0], "--state-dir", d.Dir}, args[1:]...)...)
}

// must is the output of a command line that must succeed.
func must(t *testing.T, d *testDaemon, args ...string) string {
	t.Helper()
	out, errOut, code := d.cli(t, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}
