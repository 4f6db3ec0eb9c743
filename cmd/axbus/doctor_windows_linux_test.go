package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/pace"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/xwindows"
)

// axbus doctor against a daemon that runs its own headless desktop, as `serve --headless always` does: a GTK3
// app started into it with NO_AT_BRIDGE=1 shows a window but publishes no tree, and the doctor lists it with the
// GTK fix; the fixture app, which is accessible, is not listed; what Qt needs from the desktop (the root window's
// AT_SPI_BUS, IsEnabled) is there.
func TestDoctorInaccessibleWindows(t *testing.T) {
	if err := headless.Available(); err != nil {
		t.Fatalf("the headless desktop needs: %v (make test installs it)", err)
	}
	if _, err := exec.LookPath("gtk3-widget-factory"); err != nil {
		t.Fatal("the test needs gtk3-widget-factory (Debian: gtk-3-examples)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	d := &testDaemon{testdaemon.Start(t, daemon.Config{Headless: "always", Log: slog.New(slog.DiscardHandler)})}
	dir := d.Dir
	sess := d.Desktop.Session

	silent := exec.Command("gtk3-widget-factory")
	silent.Env = append(sess.Env(), "NO_AT_BRIDGE=1")
	if err := silent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = silent.Process.Kill()
		_ = silent.Wait()
	})
	waitWindow(t, ctx, sess, silent.Process.Pid)

	var out, errb bytes.Buffer
	code := run(ctx, []string{"doctor", "--state-dir", dir, "--watch", "1s"}, &out, &errb)
	report := out.String()
	t.Logf("exit %d\n%s%s", code, report, errb.String())
	for _, want := range []string{
		"ok    AT_SPI_BUS             the root window of " + sess.Display + " names the accessibility bus " + sess.A11yBus,
		"ok    a11y IsEnabled",
		fmt.Sprintf("of gtk3-widget-factory (pid %d, GTK 3): no app registered with AT-SPI: it was started with NO_AT_BRIDGE=1", silent.Process.Pid),
		"fix: Restart it without NO_AT_BRIDGE",
		fmt.Sprintf("axbus-fixture-gtk3 (pid %d)", d.Desktop.App.PID), // listed by apps: registered
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if n := strings.Count(report, "FAIL  inaccessible window"); n != 1 {
		t.Errorf("%d inaccessible windows listed, want the widget factory's alone", n)
	}
	if code != exitUnavailable {
		t.Errorf("exit %d, want %d", code, exitUnavailable)
	}
}

// waitWindow waits until the process pid shows a window on the session's display.
func waitWindow(t *testing.T, ctx context.Context, sess *headless.Session, pid int) {
	t.Helper()
	x, err := xwindows.Open(sess.Display, sess.XAuthority)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	err = backoff.Retry(func() error {
		wins, err := x.TopLevel()
		if err != nil {
			return backoff.Permanent(err)
		}
		for _, w := range wins {
			if w.PID == pid {
				return nil
			}
		}
		return errors.New("no window yet")
	}, pace.Every(ctx, 100*time.Millisecond, 30*time.Second))
	if err != nil {
		t.Fatalf("pid %d showed no window on %s: %v", pid, sess.Display, err)
	}
}
