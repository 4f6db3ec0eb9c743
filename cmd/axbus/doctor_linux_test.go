package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/headless"
)

// axbus doctor on a private headless desktop: every check passes and the report says what it
// saw; a backend that cannot open is a failed check with its fix, and a non-zero exit.
func TestDoctor(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"doctor", "--headless", "always", "--watch", "2s"}, &out, &errb)
	report := out.String()
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, report, errb.String())
	}
	for _, want := range []string{"ok    headless desktop", "axbus-fixture-gtk3", "ok    accessibility backend  atspi",
		"ok    inspect", `"axbus fixture (GTK3)"`, "ok    events", "state_changed", "all checks passed"} {
		if !strings.Contains(report, want) {
			t.Fatalf("the report lacks %q:\n%s", want, report)
		}
	}

	out.Reset()
	errb.Reset()
	code = run(ctx, []string{"doctor", "--headless", "never", "--backend", "ax"}, &out, &errb) // macOS's

	if code != exitUsage || !strings.Contains(out.String(), "FAIL  accessibility backend") || !strings.Contains(out.String(), "fix: Choose one of") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
}

// axbus doctor on a desktop with two Chromiums: the one whose accessibility is off is a failed check that
// says how to turn it on; the other is reported fine, and alone it passes every check. Off takes
// --disable-platform-accessibility-integration: with --disable-renderer-accessibility alone (in place of
// --force-renderer-accessibility) Chromium builds its tree as soon as the doctor reads its window.
func TestDoctorBrowsers(t *testing.T) {
	if err := headless.Available(); err != nil {
		t.Fatalf("the headless desktop needs: %v (make test installs it)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	sess, err := headless.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	app, err := sess.StartApp(ctx, headless.KindGTK3) // makes the events the events check waits for
	if err != nil {
		t.Fatal(err)
	}
	on, err := sess.StartBrowser(ctx, "page.html")
	if err != nil {
		t.Fatal(err)
	}
	off, err := sess.StartBrowser(ctx, "page.html", "--disable-renderer-accessibility", "--disable-platform-accessibility-integration")
	if err != nil {
		t.Fatal(err)
	}
	// doctor --headless never checks the desktop of the environment: this session's.
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", sess.SessionBus)
	t.Setenv("AT_SPI_BUS_ADDRESS", "")
	t.Setenv("DISPLAY", sess.Display)
	t.Setenv("XAUTHORITY", sess.XAuthority)

	doctor := func() (string, int) {
		t.Helper()
		stop := make(chan struct{})
		toggled := make(chan struct{})
		go func() {
			defer close(toggled)
			for {
				select {
				case <-stop:
					return
				case <-time.After(200 * time.Millisecond):
					_, _ = app.Do(ctx, map[string]any{"cmd": "toggle"})
				}
			}
		}()
		var out, errb bytes.Buffer
		code := run(ctx, []string{"doctor", "--standalone", "--headless", "never", "--watch", "1s"}, &out, &errb)
		close(stop)
		<-toggled
		t.Logf("exit %d\n%s%s", code, out.String(), errb.String())
		return out.String(), code
	}

	report, code := doctor()
	offLine := fmt.Sprintf("FAIL  browser accessibility  UNAVAILABLE: Chromium (pid %d, toolkit Chromium): accessibility is off", off.PID)
	for _, want := range []string{offLine, "fix: Restart it with --force-renderer-accessibility",
		fmt.Sprintf("ok    browser accessibility  Chromium (pid %d): 1 web area(s) with content", on.PID)} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if code != exitUnavailable {
		t.Errorf("exit %d, want %d", code, exitUnavailable)
	}

	if err := off.Kill(); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.WaitRegistered(ctx, off.PID, false); err != nil {
		t.Fatal(err)
	}
	report, code = doctor()
	if code != 0 || strings.Contains(report, "FAIL") || !strings.Contains(report, fmt.Sprintf("Chromium (pid %d): 1 web area(s) with content", on.PID)) {
		t.Errorf("with accessibility on: exit %d", code)
	}
}
