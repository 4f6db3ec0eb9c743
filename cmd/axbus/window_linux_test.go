package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// windowOp runs axbus window with args on app pid's window, and checks and decodes its reply.
func (dd *desktopDaemon) windowOp(t *testing.T, pid int, args ...string) api.WindowReply {
	t.Helper()
	out, errOut, code := dd.cli(t, append([]string{"window"}, append(args, "--pid", strconv.Itoa(pid), "--json")...)...)
	if code != 0 {
		t.Fatalf("window %v: exit %d %s%s", args, code, out, errOut)
	}
	testdaemon.MustMatch(t, "window.reply", []byte(out))
	return testdaemon.Decode[api.WindowReply](t, out)
}

// TestWindowOnGTK3: `axbus window move` and `resize` of the GTK3 fixture's window through NATS,
// each seen by xwininfo (the X server's own account, nobody here wrote it) at the place and size
// asked; `window close` closes it as its close button would: the app quits (app_terminated).
func TestWindowOnGTK3(t *testing.T) {
	const kind = headless.KindGTK3
	dd := startDesktopDaemon(t, kind)
	pid := strconv.Itoa(dd.apps[kind].PID)
	geometry := func() (x, y, w, h int) {
		t.Helper()
		cmd := exec.Command("xwininfo", "-name", "axbus fixture (GTK3)")
		cmd.Env = append(os.Environ(), "DISPLAY="+dd.session.Display, "XAUTHORITY="+dd.session.XAuthority)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("xwininfo: %v %s", err, out)
		}
		field := func(name string) int {
			m := regexp.MustCompile(name + `:\s+(-?\d+)`).FindSubmatch(out)
			if m == nil {
				t.Fatalf("xwininfo says no %s: %s", name, out)
			}
			v, _ := strconv.Atoi(string(m[1]))
			return v
		}
		return field("Absolute upper-left X"), field("Absolute upper-left Y"), field("Width"), field("Height")
	}
	window := func(args ...string) api.WindowReply { t.Helper(); return dd.windowOp(t, dd.apps[kind].PID, args...) }
	r := window("move", "--to", "120,80")
	if x, y, _, _ := geometry(); x != 120 || y != 80 || r.After == nil || r.After.Bounds.X != 120 || r.After.Bounds.Y != 80 {
		t.Fatalf("moved to (120, 80): xwininfo says (%d, %d); the reply %+v", x, y, r.After)
	}
	r = window("resize", "--size", "640x480")
	if _, _, w, h := geometry(); w != 640 || h != 480 || r.After == nil || r.After.Bounds.W != 640 || r.After.Bounds.H != 480 {
		t.Fatalf("resized to 640x480: xwininfo says %dx%d; the reply %+v", w, h, r.After)
	}
	if _, _, code := dd.cli(t, "window", "resize", "--size", "0x10", "--pid", pid); code != exitUsage {
		t.Fatalf("a resize to 0x10: exit %d, want the usage error", code)
	}

	dd.drain()
	if r = window("close"); !r.Closed {
		t.Fatalf("window close: %+v", r)
	}
	dd.await(t, "the fixture quitting once its window closed", dd.apps[kind].PID, 10*time.Second,
		func(e api.Envelope) bool { return e.Type == model.EventAppTerminated })
}

// A window moved after its elements were read (GTK3 announces no new bounds for them) still has
// them where they were within it: a click by locator, whose snapshot the waits' copy made with
// the old place, acts on Save; it was refused STALE_REF ("moved more than 50") when an element's
// drift was measured on the screen rather than within its window.
func TestActAfterTheWindowMoved(t *testing.T) {
	const kind = headless.KindGTK3
	dd := startDesktopDaemon(t, kind)
	pid := strconv.Itoa(dd.apps[kind].PID)
	before := dd.state(t, kind).Saves
	if out, errOut, code := dd.cli(t, "wait", "element:role=button,name=Save", "--pid", pid); code != 0 { // the waits' copy read
		t.Fatalf("wait: %d %s %s", code, out, errOut)
	}
	dd.windowOp(t, dd.apps[kind].PID, "move", "--to", "400,300")
	if out, errOut, code := dd.cli(t, "click", "role=button,name=Save", "--pid", pid); code != 0 {
		t.Fatalf("click after the window moved: %d %s %s", code, out, errOut)
	}
	dd.eventually(t, kind, "Save clicked", func(s headless.State) bool { return s.Saves > before })
}
