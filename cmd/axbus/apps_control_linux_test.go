package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// x11 runs an X client of the headless desktop (xwininfo, xclip: the X server's own account
// and a clipboard client nobody here wrote) and returns its output; given stdin, it returns
// none (xclip -i leaves a child holding the selection, and its output open).
func (dd *desktopDaemon) x11(t *testing.T, stdin string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+dd.session.Display, "XAUTHORITY="+dd.session.XAuthority)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
		return "", cmd.Run()
	}
	out, err := cmd.Output()
	return string(out), err
}

// mapState is xwininfo's map state of the window titled title.
func (dd *desktopDaemon) mapState(t *testing.T, title string) string {
	t.Helper()
	out, err := dd.x11(t, "", "xwininfo", "-name", title)
	m := regexp.MustCompile(`Map State:\s+(\w+)`).FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("xwininfo -name %q: %v %s", title, err, out)
	}
	return m[1]
}

// TestAppsOnGTK3: launch by desktop entry returns the GTK3 fixture registered (apps lists it);
// quit ends it (app_terminated), quit --force too; a command needs an admin; window minimize
// and raise are seen by xwininfo (unmapped, then viewable) and in the windows' states.
func TestAppsOnGTK3(t *testing.T) {
	if _, err := exec.LookPath("xclip"); err != nil {
		t.Fatal("the clipboard tests need xclip (make test installs it)")
	}
	fixtureDir, err := headless.FixtureDir()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(fixtureDir, "gtk3_fixture.py")
	data := t.TempDir()
	entry := "[Desktop Entry]\nType=Application\nName=Axbus Launch Fixture\nExec=" + headless.Python + " " + script + " %U\n"
	if err := os.MkdirAll(filepath.Join(data, "applications"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "applications", "org.axbus.LaunchFixture.desktop"), []byte(entry), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", data) // before the daemon: its launches' environment
	dd := startDesktopDaemon(t)

	launch := func(args ...string) api.LaunchReply {
		t.Helper()
		out, errOut, code := dd.cli(t, append([]string{"launch", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("launch %v: exit %d %s%s", args, code, out, errOut)
		}
		testdaemon.MustMatch(t, "launch.reply", []byte(out))
		return testdaemon.Decode[api.LaunchReply](t, out)
	}
	listed := func(pid int) bool {
		t.Helper()
		out, _, code := dd.cli(t, "apps", "--json")
		if code != 0 {
			t.Fatalf("apps: exit %d", code)
		}
		for _, a := range testdaemon.Decode[api.AppsReply](t, out).Apps {
			if a.PID == pid {
				return true
			}
		}
		return false
	}

	t.Run("launch by entry, quit", func(t *testing.T) {
		r := launch("org.axbus.LaunchFixture")
		if r.App.PID != r.PID || r.App.Name != "axbus-fixture-gtk3" || !listed(r.PID) {
			t.Fatalf("launched %+v; listed: %v", r, listed(r.PID))
		}
		t.Logf("launch: registered %.0f ms after the start", r.RegisteredMS)
		dd.drain()
		out, errOut, code := dd.cli(t, "quit", "--pid", strconv.Itoa(r.PID), "--json")
		if code != 0 {
			t.Fatalf("quit: exit %d %s%s", code, out, errOut)
		}
		testdaemon.MustMatch(t, "quit.reply", []byte(out))
		dd.await(t, "app_terminated of the quit fixture", r.PID, 5*time.Second, func(e api.Envelope) bool { return e.Type == model.EventAppTerminated })
		if listed(r.PID) {
			t.Fatal("apps still lists the quit fixture")
		}
	})
	t.Run("launch by name, quit --force", func(t *testing.T) {
		r := launch("axbus launch fixture") // its Name, any case
		dd.drain()
		if _, errOut, code := dd.cli(t, "quit", "--force", "--pid", strconv.Itoa(r.PID)); code != 0 {
			t.Fatalf("quit --force: exit %d %s", code, errOut)
		}
		dd.await(t, "app_terminated of the killed fixture", r.PID, 5*time.Second, func(e api.Envelope) bool { return e.Type == model.EventAppTerminated })
		// Its bus connection closes while the kernel tears the process down: ended is a zombie
		// (until the daemon reaps it) or gone, a moment after.
		var stat []byte
		ended := func() bool {
			var err error
			stat, err = os.ReadFile("/proc/" + strconv.Itoa(r.PID) + "/stat")
			return err != nil || strings.Contains(string(stat), ") Z ")
		}
		if !testkit.Within(5*time.Second, ended) {
			t.Fatalf("the killed fixture's process runs: %s", stat)
		}
	})
	t.Run("a flow's app and window steps", func(t *testing.T) { // issue 36: launch, move, quit, each proven
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		const app, title = "axbus-fixture-gtk3", "axbus fixture (GTK3)"
		replay := func(steps ...api.FlowStep) {
			t.Helper()
			run, err := dd.client.Replay(ctx, api.ReplayRequest{Flow: api.Flow{Version: 1, Steps: steps}})
			if err != nil || run.Outcome != api.FlowMet {
				t.Fatalf("the flow: %v %+v", err, run)
			}
			t.Logf("%d steps in %.0f ms: %+v", len(steps), run.ElapsedMS, run.Steps)
		}
		replay(api.FlowStep{Action: "launch", App: app, Value: "org.axbus.LaunchFixture", Expect: "window:title=" + strconv.Quote(title)},
			api.FlowStep{Action: "window", App: app, Value: "move 40 30"})
		if out, err := dd.x11(t, "", "xwininfo", "-name", title); err != nil || !strings.Contains(out, "Absolute upper-left X:  40") || !strings.Contains(out, "Absolute upper-left Y:  30") {
			t.Fatalf("X does not see the window moved to (40, 30): %v\n%s", err, out)
		}
		replay(api.FlowStep{Action: "quit", App: app})
		apps, err := dd.client.Apps(ctx)
		for _, a := range apps {
			if err != nil || a.Name == app {
				t.Fatalf("the fixture runs after the flow's quit: %+v %v", a, err)
			}
		}
	})
	t.Run("commands: admins only, failures at once", func(t *testing.T) {
		agent := testdaemon.NewLeaseAgent(t, dd.Daemon, "launcher", api.RoleAgent)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := agent.Client.Launch(ctx, api.LaunchRequest{Command: []string{headless.Python, script}}); model.CodeOf(err) != model.CodePermissionDenied {
			t.Fatalf("an agent's command launch: %v, want PERMISSION_DENIED", err)
		}
		if _, err := agent.Client.Launch(ctx, api.LaunchRequest{Entry: "org.axbus.NoSuchApp"}); model.CodeOf(err) != model.CodeAppNotFound {
			t.Fatalf("a missing entry: %v, want APP_NOT_FOUND", err)
		}
		start := time.Now()
		if _, err := dd.client.Launch(ctx, api.LaunchRequest{Command: []string{"/bin/sh", "-c", "exit 3"}}); model.CodeOf(err) != model.CodeActionFailed ||
			!strings.Contains(err.Error(), "exit status 3") || time.Since(start) > 5*time.Second {
			t.Fatalf("a command that fails: %v after %v, want ACTION_FAILED at once", err, time.Since(start))
		}
		r := launch("--command", headless.Python, script)
		if _, err := agent.Client.Quit(ctx, api.QuitRequest{AppTarget: api.AppTarget{PID: r.PID}}); err != nil {
			t.Fatalf("the agent quits the admin's app: %v", err)
		}
	})
	t.Run("window minimize, raise", func(t *testing.T) {
		r := launch("org.axbus.LaunchFixture")
		pid := strconv.Itoa(r.PID)
		const title = "axbus fixture (GTK3)"
		for _, c := range []struct{ op, mapState string }{{"minimize", "IsUnMapped"}, {"raise", "IsViewable"}} {
			out, errOut, code := dd.cli(t, "window", c.op, "--pid", pid, "--json")
			if code != 0 {
				t.Fatalf("window %s: exit %d %s%s", c.op, code, out, errOut)
			}
			w := testdaemon.Decode[api.WindowReply](t, out)
			if got := dd.mapState(t, title); got != c.mapState || w.After == nil || w.After.Minimized != (c.op == "minimize") {
				t.Fatalf("window %s: xwininfo says %s (want %s); after %+v", c.op, got, c.mapState, w.After)
			}
		}
		if out, errOut, code := dd.cli(t, "activate", "--pid", pid, "--json"); code != 0 || !testdaemon.Decode[api.WindowReply](t, out).After.Focused {
			t.Fatalf("activate: exit %d %s%s", code, out, errOut)
		}
	})
}

// TestClipboardOnX11: clipboard set, then xclip reads it; xclip sets it, then clipboard get
// reads it: non-ASCII text both ways, 150 KB through xclip's INCR transfer too. A monitor may
// not read it.
func TestClipboardOnX11(t *testing.T) {
	dd := startDesktopDaemon(t)
	const text = "Grüße, 世界 ✓ — naïve café"
	if _, errOut, code := dd.cli(t, "clipboard", "set", text); code != 0 {
		t.Fatalf("clipboard set: exit %d %s", code, errOut)
	}
	if got, err := dd.x11(t, "", "xclip", "-o", "-selection", "clipboard"); err != nil || got != text {
		t.Fatalf("xclip reads %q (%v), want %q", got, err, text)
	}
	for _, want := range []string{"from xclip: ½ ∞ Ωμέγα", strings.Repeat("long line of text ✓\n", 7500)} {
		if _, err := dd.x11(t, want, "xclip", "-i", "-selection", "clipboard"); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := dd.cli(t, "clipboard", "get", "--json")
		if code != 0 {
			t.Fatalf("clipboard get: exit %d %s", code, errOut)
		}
		testdaemon.MustMatch(t, "clipboard.reply", []byte(out))
		if got := testdaemon.Decode[api.ClipboardReply](t, out); got.Text != want {
			t.Fatalf("clipboard get: %d bytes %.40q, want %d bytes %.40q", len(got.Text), got.Text, len(want), want)
		}
	}
	if out, _, code := dd.cli(t, "clipboard", "set", "--json"); code != 0 || !testdaemon.Decode[api.ClipboardReply](t, out).Empty {
		t.Fatalf("clipboard set without text: exit %d %s, want it empty", code, out)
	}
	monitor := testdaemon.NewLeaseAgent(t, dd.Daemon, "watcher", api.RoleMonitor)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := monitor.Client.Clipboard(ctx, api.ClipboardRequest{Op: "get"}); err == nil {
		t.Fatal("a monitor read the clipboard")
	}
}
