//go:build linux

package atspi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
)

var kinds = []string{headless.KindGTK3, headless.KindGTK4}

// screen is the size of the headless session's screen.
var screen = model.Rect{W: 1280, H: 1024}

func TestOpenWithoutSessionBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("AT_SPI_BUS_ADDRESS", "")
	_, err := Open(context.Background())
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeUnavailable {
		t.Fatalf("Open without a session bus: %v", err)
	}
	if !strings.Contains(e.Message, "DBUS_SESSION_BUS_ADDRESS") || !strings.Contains(e.Suggestion, "--headless") {
		t.Errorf("the error does not say what is missing and how to get it: %+v", e)
	}
}

// A session bus without the accessibility services (a bare dbus-daemon) has no accessibility bus.
func TestOpenWithoutA11yBus(t *testing.T) {
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Fatalf("%v (make deps installs it)", err)
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "bare.conf")
	sock := filepath.Join(dir, "bus")
	if err := os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=`+sock+`</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--nopidfile")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	testkit.Eventually(t, 5*time.Second, "the bare bus socket", func() bool { _, err := os.Stat(sock); return err == nil })
	t.Setenv("AT_SPI_BUS_ADDRESS", "")
	_, err := Open(testkit.Context(t, 15*time.Second), WithSessionBus("unix:path="+sock))
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeUnavailable {
		t.Fatalf("Open without an accessibility bus: %v", err)
	}
	if !strings.Contains(e.Message, "accessibility bus") || !strings.Contains(e.Suggestion, "at-spi2-core") {
		t.Errorf("the error does not say what is missing and how to get it: %+v", e)
	}
}

func TestAppsAndWindows(t *testing.T) {
	s := session(t)
	apps := map[string]*headless.App{}
	for _, k := range kinds {
		apps[k] = startApp(t, s, k)
	}
	b := open(t, s)
	if b.Platform() != "atspi" {
		t.Errorf("Platform() = %q", b.Platform())
	}
	list, err := b.Apps(testkit.Context(t, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for kind, a := range apps {
		var got *model.App
		for i := range list {
			if list[i].PID == a.PID {
				got = &list[i]
			}
		}
		if got == nil {
			t.Fatalf("%s fixture (pid %d) not in %+v", kind, a.PID, list)
		}
		wantTK := map[string]string{headless.KindGTK3: "gtk", headless.KindGTK4: "GTK"}[kind]
		if got.Name != headless.AppName(kind) || got.Toolkit != wantTK || !strings.HasPrefix(got.Instance, ":") {
			t.Errorf("%s app: %+v, want name %q toolkit %q and a unique bus name", kind, got, headless.AppName(kind), wantTK)
		}
		if got.PID == os.Getpid() {
			t.Error("axbus lists itself")
		}
		w := mainWindow(t, b, a)
		if w.Role != model.RoleWindow || w.ID == "" || len(w.ID) > 12 || w.Bounds == nil || w.Bounds.W < 300 || w.Bounds.H < 300 {
			t.Errorf("%s window: %+v %+v", kind, w, w.Bounds)
		}
		if _, _, ok := ParseRef(w.Ref); !ok {
			t.Errorf("window ref %q", w.Ref)
		}
		if again := mainWindow(t, b, a); again.ID != w.ID {
			t.Errorf("window id not stable: %q then %q", w.ID, again.ID)
		}
	}
	if _, err := b.Windows(testkit.Context(t, 5*time.Second), 999999); model.CodeOf(err) != model.CodeAppNotFound {
		t.Errorf("Windows(unknown pid): %v", err)
	}
}

func TestReadFixture(t *testing.T) {
	s := session(t)
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			a := startApp(t, s, kind)
			b := open(t, s)
			win := mainWindow(t, b, a)
			res := walk(t, b, win.Ref)
			if res.Incomplete {
				t.Errorf("walk incomplete: %v", res.Truncation)
			}
			root := res.Nodes[0]
			if root.Role != model.RoleWindow || root.Name != headless.WindowTitle(kind) || root.Bounds == nil {
				t.Errorf("root: %+v", root.Node)
			}
			save := find(t, res, model.RoleButton, "Save")
			name := find(t, res, model.RoleTextField, "Name")
			remember := find(t, res, model.RoleCheckbox, "Remember me")
			volume := find(t, res, model.RoleSlider, "Volume")
			if save.PlatformRole != "push button" || !save.States.Has(model.StateEnabled) {
				t.Errorf("Save: %+v", save.Node)
			}
			if !name.HasValue || name.Value != "" || !name.States.Has(model.StateEditable) {
				t.Errorf("Name: %+v", name.Node)
			}
			if status := find(t, res, model.RoleLabel, "Status"); status.Text != "Ready" || status.HasValue {
				t.Errorf("Status label: text %q (want Ready, its text beside its name)", status.Text)
			}
			if row := find(t, res, model.RoleLabel, "Row 1"); row.Text != "" {
				t.Errorf("a label whose text is its name carries Text %q", row.Text)
			}
			if volume.Value != "25" || !volume.HasValue {
				t.Errorf("Volume value %q (want 25)", volume.Value)
			}
			if remember.States.Has(model.StateChecked) || remember.Value != "0" {
				t.Errorf("Remember me before the toggle: %v value %q", remember.States, remember.Value)
			}
			for _, n := range []observer.Walked{save, name, remember, volume} {
				if n.Bounds == nil || n.Offscreen || n.Bounds.Empty() || !inside(*n.Bounds, screen) || !inside(*n.Bounds, *root.Bounds) {
					t.Errorf("%s %q bounds %+v not inside the window %+v", n.Role, n.Name, n.Bounds, root.Bounds)
				}
			}
			// Far rows of the 400-row list are off-screen: GTK3 reports INT_MIN extents for them, GTK4
			// 0x0 for the rows it has realised beyond the viewport (about 200 of 400).
			list := find(t, res, model.RoleList, "Rows")
			viewport := visiblePart(res, list)
			far := 0
			for _, n := range res.Nodes {
				var row int
				if _, err := fmt.Sscanf(n.Name, "Row %d", &row); err != nil || n.Role != model.RoleLabel || row < 100 {
					continue
				}
				far++
				item := res.Nodes[n.Parent]
				for _, e := range []observer.Walked{n, item} {
					if !e.Offscreen || e.Bounds != nil {
						t.Errorf("%s of %q: offscreen %v bounds %+v (viewport %+v)", e.Role, n.Name, e.Offscreen, e.Bounds, viewport)
					}
				}
			}
			if far == 0 {
				t.Error("no far row in the walk")
			}
			first := find(t, res, model.RoleLabel, "Row 1")
			if first.Offscreen || first.Bounds == nil || !first.Bounds.Touches(viewport) {
				t.Errorf("Row 1 %+v is not in the viewport %+v", first.Bounds, viewport)
			}
			t.Logf("%s: %d elements, %d far rows off-screen", kind, len(res.Nodes), far)

			r := do(t, a, map[string]any{"cmd": "toggle"})
			if r["active"] != true {
				t.Fatalf("toggle: %v", r)
			}
			testkit.Eventually(t, 2*time.Second, "the checkbox to read checked", func() bool {
				n := b.Read(testkit.Context(t, 5*time.Second), []model.NodeRef{remember.Ref})[0]
				return n.Err == nil && n.States.Has(model.StateChecked) && n.Value == "1"
			})
			do(t, a, map[string]any{"cmd": "set_text", "text": "Ada Lovelace"})
			testkit.Eventually(t, 2*time.Second, "the entry's new text", func() bool {
				n := b.Read(testkit.Context(t, 5*time.Second), []model.NodeRef{name.Ref})[0]
				return n.Err == nil && n.Value == "Ada Lovelace"
			})
			// A handle that is not ours, and one whose object does not exist.
			bus, _, _ := ParseRef(win.Ref)
			nodes := b.Read(testkit.Context(t, 5*time.Second), []model.NodeRef{"e3", MakeRef(bus, "/org/a11y/atspi/accessible/987654")})
			if model.CodeOf(nodes[0].Err) != model.CodeStaleRef || model.CodeOf(nodes[1].Err) != model.CodeElementNotFound {
				t.Errorf("bad refs: %v / %v", nodes[0].Err, nodes[1].Err)
			}
		})
	}
}

// visiblePart is the part of n inside every clipping ancestor (scroll area) above it.
func visiblePart(res observer.WalkResult, n observer.Walked) model.Rect {
	r := *n.Bounds
	for p := n.Parent; p >= 0; p = res.Nodes[p].Parent {
		an := res.Nodes[p]
		if an.Role.Clips() && an.Bounds != nil {
			r = r.Intersect(*an.Bounds)
		}
	}
	return r
}

func inside(r, outer model.Rect) bool {
	return r.X >= outer.X && r.Y >= outer.Y && r.X+r.W <= outer.X+outer.W && r.Y+r.H <= outer.Y+outer.H
}

// The password field is secure by its numeric role, has no value, and its text appears in
// nothing a read returns: GTK3 would answer bullets, GTK4 4.8 the plain text.
func TestPasswordNeverRead(t *testing.T) {
	s := session(t)
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			a := startApp(t, s, kind)
			b := open(t, s)
			win := mainWindow(t, b, a)
			res := walk(t, b, win.Ref)
			pw := find(t, res, model.RolePassword, "Password")
			if !pw.Secure || pw.HasValue || pw.Value != "" || pw.Text != "" || pw.PlatformRole != "password text" {
				t.Errorf("password field: %+v", pw.Node)
			}
			if leaks(res) {
				t.Fatal("the walk holds the password")
			}
			for _, mode := range []readMode{modeFull, modeSummary, modeWindow} {
				if n := b.read(testkit.Context(t, 5*time.Second), []model.NodeRef{pw.Ref}, mode, false); leaks(n) {
					t.Fatalf("read mode %d holds the password", mode)
				}
			}
			if n := b.SequentialRead(testkit.Context(t, 5*time.Second), []model.NodeRef{pw.Ref}); leaks(n) || !n[0].Secure {
				t.Fatal("the sequential read holds the password")
			}
			if st := state(t, a); st.PasswordLen != len(headless.FixturePassword) {
				t.Fatalf("the fixture's password has %d characters", st.PasswordLen)
			}

			// Events of the password field never carry its text, whatever the toolkit sends
			// (GTK4's text-changed carries the inserted text). Setting it is allowed: agents log in.
			rec := testkit.Record(t, b.Watch)
			m := rec.Mark()
			secret := headless.FixturePassword + "-again"
			if err := b.SetAttribute(testkit.Context(t, 5*time.Second), pw.Ref, "text", secret); err != nil {
				t.Fatalf("setting the password: %v", err)
			}
			testkit.Eventually(t, 3*time.Second, "the new password", func() bool { return state(t, a).PasswordLen == len(secret) })
			e := rec.WaitFor(t, m, 3*time.Second, "text_changed on the password field", func(e model.Event) bool {
				return e.App.PID == a.PID && e.Type == model.EventTextChanged && e.Element != nil && e.Element.Role == model.RolePassword
			})
			if e.Element.Value != "" {
				t.Errorf("password event carries a value")
			}
			m = rec.Mark()
			do(t, a, map[string]any{"cmd": "focus", "target": "Password"})
			// What the focus move sends comes by its focus event: once it is in, so are they.
			rec.WaitFor(t, m, 3*time.Second, "focus_changed to the password field", func(e model.Event) bool {
				return e.App.PID == a.PID && e.Type == model.EventFocusChanged && e.Element != nil && e.Element.Role == model.RolePassword
			})
			for _, ev := range rec.All() {
				if leaks(ev.Event) {
					t.Fatalf("event %s %s holds the password", ev.Type, ev.Raw)
				}
			}
			if path, err := b.FocusPath(testkit.Context(t, 5*time.Second), a.PID); err != nil || leaks(b.Read(testkit.Context(t, 5*time.Second), path)) {
				t.Fatalf("focus path read: %v", err)
			}
		})
	}
}

// GTK3 crashes on GetText(0, -1); reading every text element of the window again and again must
// leave the app alive and answering.
func TestGetTextTrapGTK3(t *testing.T) {
	s := session(t)
	a := startApp(t, s, headless.KindGTK3)
	b := open(t, s)
	win := mainWindow(t, b, a)
	res := walk(t, b, win.Ref)
	var texts []model.NodeRef
	for _, n := range res.Nodes {
		if ri, ok := b.cache.get(n.Ref); ok && ri.ifaces.has(ifText) {
			texts = append(texts, n.Ref)
		}
	}
	if len(texts) < 20 {
		t.Fatalf("only %d text elements", len(texts))
	}
	long := false
	for range 10 {
		for _, n := range b.Read(testkit.Context(t, 10*time.Second), texts) {
			if n.Err != nil {
				t.Fatalf("read: %v", n.Err)
			}
			if strings.Contains(n.Text, "Line 60 of the long text") {
				long = true
			}
		}
	}
	if !long {
		t.Error("the long text view's text was not read to its end")
	}
	select {
	case <-a.Done():
		t.Fatal("the GTK3 app died")
	default:
	}
	if st := state(t, a); st.PID != a.PID {
		t.Fatalf("state: %+v", st)
	}
}

// A watched GTK3 app's elements, once read, are read again without GetAll: their name,
// description, parent and child count come from what the read and the events since left. Such a
// warm walk finds what a backend that never read the window finds.
func TestWarmReadTakesPropertiesFromTheWatch(t *testing.T) {
	fx := startWatchedGTK3(t)
	s, b, win := fx.s, fx.b, fx.win
	wide := observer.WalkOptions{Budget: model.WideBudget()}
	observer.Walk(testkit.Context(t, 10*time.Second), b, win.Ref, wide)
	warm := observer.Walk(testkit.Context(t, 10*time.Second), b, win.Ref, wide)
	w := b.currentWatch()
	kept := 0
	for _, n := range warm.Nodes {
		if ri, _ := b.cache.get(n.Ref); ri.propsBy == w && ri.keptFor(w) {
			kept++
		}
	}
	if kept < len(warm.Nodes)*9/10 {
		t.Fatalf("%d of %d elements have their properties kept: the next read asks GetAll for the others", kept, len(warm.Nodes))
	}
	again := observer.Walk(testkit.Context(t, 10*time.Second), b, win.Ref, wide) // with the properties kept
	fresh := observer.Walk(testkit.Context(t, 10*time.Second), open(t, s), win.Ref, wide)
	shape := func(res observer.WalkResult) []string {
		var out []string
		for _, n := range res.Nodes {
			out = append(out, fmt.Sprintf("%s %s %q %q %d %s %q %v %q", n.Ref, n.Role, n.Name, n.Description, n.ChildCount, n.Node.Parent, n.Identifier, n.States, n.Value))
		}
		return out
	}
	if g, f := shape(again), shape(fresh); !slices.Equal(g, f) {
		for i := range min(len(g), len(f)) {
			if g[i] != f[i] {
				t.Fatalf("element %d: warm %s, fresh %s (%d and %d elements)", i, g[i], f[i], len(g), len(f))
			}
		}
		t.Fatalf("warm walk %d elements, fresh %d", len(g), len(f))
	}

}

// An app answers an action of ours over its peer connection before the action's events reach us
// through the bus daemon: a read right after the action asks the app again, rather than take the
// text and properties its events would have kept. Here the events never come (their match rule is
// removed), so only asking again shows the new text.
func TestReadAfterAnActionAsksAgain(t *testing.T) {
	fx := startWatchedGTK3(t)
	a, b, win := fx.a, fx.b, fx.win
	ctx := testkit.Context(t, 20*time.Second)
	wide := observer.WalkOptions{Budget: model.WideBudget()}
	observer.Walk(ctx, b, win.Ref, wide)
	name := find(t, observer.Walk(ctx, b, win.Ref, wide), model.RoleTextField, "Name")
	if ri, _ := b.cache.get(name.Ref); !ri.haveText || ri.propsBy != b.currentWatch() {
		t.Fatalf("the entry's text and properties are not kept after two reads: %+v", ri)
	}
	if err := b.conn.RemoveMatchSignalContext(ctx, dbus.WithMatchInterface(eventIfacePrefix+"Object")); err != nil {
		t.Fatal(err)
	}
	if err := b.SetAttribute(ctx, name.Ref, "text", "typed by us"); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 2*time.Second, "the app to take the text", func() bool { return state(t, a).Name == "typed by us" })
	if n := b.Read(ctx, []model.NodeRef{name.Ref})[0]; n.Err != nil || n.Value != "typed by us" {
		t.Errorf("read after our action: value %q (err %v), want the app's %q", n.Value, n.Err, "typed by us")
	}
}
