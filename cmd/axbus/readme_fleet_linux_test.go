package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// TestReadmeFleet runs the README's fleet block as a user would, with axbus on PATH: a hub, this
// machine's desktop (the headless AT-SPI desktop and its GTK3 fixture) joined to it as h1, and
// the hub's clients reaching it: hosts, apps, a click proven by its expect, apps and tail of
// every host.
func TestReadmeFleet(t *testing.T) {
	if err := headless.Available(); err != nil {
		t.Fatalf("the headless desktop needs: %v (make test installs it)", err)
	}
	lines := fleetLines(t, filepath.Join(testdaemon.ModuleRoot(t), "README.md"))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel) // after the background lines' own cleanups, which stop them by SIGTERM
	u := newReadmeUser(t, ctx)
	for i, kv := range u.env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			u.env[i] = "PATH=" + filepath.Join(u.dir, "bin") + string(os.PathListSeparator) + path // make install's
		}
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) { u.fleetLine(t, line) })
		if ctx.Err() != nil {
			t.Fatal("the test ran out of time")
		}
	}
}

// fleetLines are the command lines of the first code block of the README's fleet section.
func fleetLines(t *testing.T, readme string) []string {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Many desktops: a hub\n")
	_, block, ok2 := strings.Cut(section, "```\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal(`README.md has no code block in "## Many desktops: a hub"`)
	}
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		if l = stripComment(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// fleetLine runs one line of the fleet block and checks what it did.
func (u *readmeUser) fleetLine(t *testing.T, line string) {
	words := strings.Fields(line)
	if words[0] != "axbus" || len(words) < 2 {
		t.Fatalf("a README line this test does not know: %q", line)
	}
	if words[len(words)-1] == "&" {
		u.background(t, strings.TrimSuffix(line, "&"), words[1])
		return
	}
	switch words[1] {
	case "tail":
		if env := u.tailLine(t, line, words); env.Host != "h1" {
			t.Fatalf("%s printed an event of host %q", line, env.Host)
		}
		return
	case "hosts":
		// The desktop joins the hub a moment after its daemon starts: a user runs hosts again.
		// The leaf link sends no event this client could wait for.
		var out string
		if !testkit.Within(20*time.Second, func() bool {
			out = u.sh(t, line)
			hosts := testdaemon.Decode[struct{ Hosts []client.Host }](t, out).Hosts
			return len(hosts) == 1 && hosts[0].Host == "h1" && hosts[0].Backend == "atspi"
		}) {
			t.Fatalf("hosts: %s", out)
		}
		return
	}
	out := u.sh(t, line)
	switch words[1] {
	case "hub":
		switch {
		case words[2] == "creds":
			if !strings.Contains(out, words[3]+".nk") {
				t.Fatalf("hub creds: %s", out)
			}
		case words[2] == "config":
			if !strings.Contains(out, "leafnodes") || !strings.Contains(out, `"ax.h1.api.click"`) {
				t.Fatalf("hub config: %s", out)
			}
		default:
			t.Fatalf("no check for the README's %q: add one", line)
		}
	case "apps":
		if strings.Trim(words[3], "'") == "*" {
			fleet := testdaemon.Decode[fleetApps](t, out)
			if len(fleet.Hosts) != 1 || fleet.Hosts[0].Host != "h1" || !hasFixture(fleet.Hosts[0].Apps) {
				t.Fatalf("apps --host '*': %s", out)
			}
			return
		}
		if r := testdaemon.Decode[api.AppsReply](t, out); !hasFixture(r.Apps) {
			t.Fatalf("apps through the hub lacks the fixture: %s", out)
		}
	case "click":
		r := testdaemon.Decode[api.ActionReply](t, out)
		if !r.Done || r.Expect == nil || r.Expect.Outcome != api.WaitMet {
			t.Fatalf("click through the hub: %.2000s", out)
		}
		if s := u.fixtureState(t); s.Saves != 1 {
			t.Fatalf("the fixture counts %d saves after the click through the hub", s.Saves)
		}
	default:
		t.Fatalf("no check for the README's %q: add one", line)
	}
}

func hasFixture(apps []model.App) bool {
	return slices.ContainsFunc(apps, func(a model.App) bool { return a.Name == "axbus-fixture-gtk3" })
}

// fixtureState is what the fixture app itself reports, through the local daemon.
func (u *readmeUser) fixtureState(t *testing.T) headless.State {
	return testdaemon.Decode[headless.State](t, u.sh(t, "axbus fixture state"))
}

// background starts a line that runs until stopped (the hub, a daemon) and waits for the
// banner that says it serves; it is stopped with SIGTERM, and must exit 0, when the test ends.
func (u *readmeUser) background(t *testing.T, line, what string) {
	banner := map[string]string{"hub": "axbus hub: clients on", "serve": "client URL:"}[what]
	if banner == "" {
		t.Fatalf("a README line this test cannot run in the background: %q", line)
	}
	cmd := u.command(line)
	ready := make(chan struct{}, 1)
	out := &lineWriter{line: func(l string) {
		if strings.Contains(l, banner) {
			select {
			case ready <- struct{}{}:
			default:
			}
		}
	}}
	var errb testkit.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	exited := make(chan struct{}) // closed once waitErr holds how the command ended
	go func() { waitErr = cmd.Wait(); close(exited) }()
	u.t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
			if waitErr != nil {
				u.t.Errorf("%s exited with %v after SIGTERM; stderr: %s", line, waitErr, errb.String())
			}
		case <-time.After(30 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			u.t.Errorf("%s did not stop within 30 s of SIGTERM", line)
		}
	})
	select {
	case <-ready:
	case <-exited:
		t.Fatalf("%s ended (%v) before it said it serves: %s%s", line, waitErr, out.String(), errb.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: no banner within 60 s: %s%s", line, out.String(), errb.String())
	}
}
