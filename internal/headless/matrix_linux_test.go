//go:build linux

package headless

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/testkit"
)

// AT-SPI numeric roles (atspi-constants.h) only the matrix fixtures use.
const (
	roleStatusBar = 54
	roleParagraph = 73
	roleEntry     = 79
	roleArticle   = 109
)

// matrixRoles is what each matrix fixture's controls are over AT-SPI: the roles a conformance scenario
// meets, toolkit by toolkit.
type matrixRoles struct {
	name, document, tick, status uint32
	documentText                 bool // the document is one text holding both paragraphs (else one element each)
	editable                     bool // the Name field has EditableText (WebKitGTK 2.50's fields have none)
	socket                       bool // the content is a plug of another process, under a socket
}

var matrixKinds = map[string]matrixRoles{
	KindQt5:    {name: roleText, document: roleText, tick: roleLabel, status: roleLabel, documentText: true, editable: true},
	KindQt6:    {name: roleText, document: roleText, tick: roleLabel, status: roleLabel, documentText: true, editable: true},
	KindSwing:  {name: roleText, document: roleText, tick: roleLabel, status: roleLabel, documentText: true, editable: true},
	KindWebKit: {name: roleEntry, document: roleArticle, tick: roleParagraph, status: roleStatusBar, socket: true},
}

// TestMatrixFixtures starts each matrix fixture, finds its controls in the AT-SPI tree (the WebKit page
// through the web view's socket), sees its Tick label change by itself, and drives Save, Name and Remember me
// over AT-SPI, each effect confirmed by the line the app prints.
func TestMatrixFixtures(t *testing.T) {
	s := startSession(t)
	for _, kind := range []string{KindQt5, KindQt6, KindSwing, KindWebKit} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			if err := FixtureAvailable(kind); err != nil {
				t.Fatalf("%v (make deps installs it)", err)
			}
			t0 := time.Now()
			app, err := s.StartApp(testkit.Context(t, 30*time.Second), kind, "AXBUS_FIXTURE_SAVE_DELAY_MS=50")
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s up, registered with a showing window in %v", kind, time.Since(t0).Round(time.Millisecond))
			testMatrix(t, s, app, matrixKinds[kind])
		})
	}
}

func testMatrix(t *testing.T, s *Session, app *App, roles matrixRoles) {
	ctx := testkit.Context(t, 20*time.Second)
	if app.PID != app.Spawned || app.Bus == "" {
		t.Errorf("app pid %d (spawned %d) on %q: want the fixture itself registered", app.PID, app.Spawned, app.Bus)
	}
	if _, err := app.State(ctx); err == nil || !strings.Contains(err.Error(), "no control socket") {
		t.Errorf("State of a matrix fixture: %v, want no control socket", err)
	}
	if out := app.Output(); len(out) == 0 || out[0] != "READY "+strconv.Itoa(app.Spawned) {
		t.Errorf("stdout %q, want READY %d first", out, app.Spawned)
	}
	nodes := walk(ctx, t, s, app)
	if root := nodes[0]; root.name != AppName(app.Kind) {
		t.Errorf("application name %q, want %q", root.name, AppName(app.Kind))
	}
	if testing.Verbose() {
		for _, n := range nodes {
			t.Log(n)
		}
	}
	if top := nodes[1]; top.name != WindowTitle(app.Kind) || (top.role != roleFrame && top.role != roleFiller) {
		t.Errorf("top-level window %v, want a frame (Qt: a filler) named %q", top, WindowTitle(app.Kind))
	}
	if roles.socket {
		checkSocket(ctx, t, s, app, nodes)
	}
	for _, w := range []struct {
		role uint32
		name string
	}{
		{rolePushButton, "Save"}, {roles.name, "Name"}, {rolePasswordText, "Password"},
		{roleCheckBox, "Remember me"}, {roles.document, "Document"},
	} {
		if _, ok := find(nodes, w.role, w.name); !ok {
			t.Errorf("no element role %d named %q", w.role, w.name)
		}
	}
	if pw, ok := find(nodes, rolePasswordText, "Password"); ok && readText(ctx, pw) == FixturePassword {
		t.Error("the password field gives out its text")
	}

	// The document's two paragraphs.
	if doc, ok := find(nodes, roles.document, "Document"); ok {
		var got []string
		if roles.documentText {
			got = []string{readText(ctx, doc)}
		} else {
			for _, n := range subtree(nodes, doc)[1:] {
				got = append(got, readText(ctx, n))
			}
		}
		want := []string{MatrixParagraph1, MatrixParagraph2}
		if roles.documentText {
			want = []string{MatrixParagraph1 + "\n\n" + MatrixParagraph2}
		}
		if !slices.Equal(got, want) {
			t.Errorf("document text %q, want %q", got, want)
		}
	}

	// The Tick label counts up by itself.
	tick := func() int {
		t.Helper()
		for _, n := range walk(ctx, t, s, app) {
			if n.role == roles.tick {
				if v, ok := strings.CutPrefix(textOf(ctx, n), "Tick "); ok {
					if i, err := strconv.Atoi(v); err == nil {
						return i
					}
				}
			}
		}
		t.Fatalf("no %d element reading Tick N", roles.tick)
		return 0
	}
	first := tick()
	testkit.Eventually(t, 10*time.Second, fmt.Sprintf("Tick past %d", first), func() bool { return tick() > first })

	// Save pressed over AT-SPI: the app prints SAVED 1, and the status reads Saved.
	save, _ := find(nodes, rolePushButton, "Save")
	doAction(ctx, t, save)
	if err := app.WaitOutput(ctx, "SAVED 1"); err != nil {
		t.Fatal(err)
	}
	status := func() string {
		for _, n := range walk(ctx, t, s, app) {
			if n.role == roles.status {
				if txt := textOf(ctx, n); txt == "Ready" || strings.HasPrefix(txt, "Saved") {
					return txt
				}
			}
		}
		return ""
	}
	var got string
	if !testkit.Within(10*time.Second, func() bool { got = status(); return got == "Saved" }) {
		t.Fatalf("status %q after SAVED 1, want Saved", got)
	}

	// Name set over AT-SPI (EditableText), Remember me toggled by its action.
	name, _ := find(nodes, roles.name, "Name")
	var done bool
	err := name.obj.CallWithContext(ctx, "org.a11y.atspi.EditableText.SetTextContents", 0, "Ada").Store(&done)
	switch {
	case !roles.editable && (err == nil || !strings.Contains(err.Error(), "No such interface")):
		t.Errorf("SetTextContents on Name: %v %v, want no EditableText (update the table if the toolkit has it now)", done, err)
	case !roles.editable:
	case err != nil || !done:
		t.Errorf("SetTextContents on Name: %v %v", done, err)
	default:
		if err := app.WaitOutput(ctx, "TEXT name=Ada"); err != nil {
			t.Error(err)
		}
	}
	remember, _ := find(nodes, roleCheckBox, "Remember me")
	doAction(ctx, t, remember)
	if err := app.WaitOutput(ctx, "CHECKED 1"); err != nil {
		t.Error(err)
	}
	t.Logf("stdout: %q", app.Output())
}

// checkSocket checks how an embedded tree hangs from the app's (WebKitGTK's web view): the first element on
// another bus name is the only child of a socket that counts it but leaves it out of GetChildren, and it
// belongs to a child process of the app (the web process).
func checkSocket(ctx context.Context, t *testing.T, s *Session, app *App, nodes []node) {
	t.Helper()
	for i, n := range nodes {
		if n.obj.Destination() == app.Bus {
			continue
		}
		socket := nodes[i-1]
		var refs []accRef
		err := socket.obj.CallWithContext(ctx, "org.a11y.atspi.Accessible.GetChildren", 0).Store(&refs)
		if socket.depth != n.depth-1 || socket.children != 1 || err != nil || len(refs) != 0 {
			t.Errorf("socket %v: GetChildren %v %v, want ChildCount 1 and no children listed", socket, refs, err)
		}
		pid, err := connPID(ctx, s.aconn, n.obj.Destination())
		if err != nil || !descends(pid, app.PID) {
			t.Errorf("plug %v on %s: pid %d %v, want a child process of %d", n, n.obj.Destination(), pid, err, app.PID)
		}
		t.Logf("plug %v on %s, pid %d; its socket %v", n, n.obj.Destination(), pid, socket)
		return
	}
	t.Error("no element on another bus name: the embedded tree is missing")
}

// walk reads the app's whole tree (the WebKit page through its socket).
func walk(ctx context.Context, t *testing.T, s *Session, app *App) []node {
	t.Helper()
	var nodes []node
	if err := walkTree(ctx, s.aconn, app.Bus, registryRoot, 0, &nodes); err != nil {
		t.Fatal(err)
	}
	return nodes
}

// readText is an element's whole text (Text interface), "" without one.
func readText(ctx context.Context, n node) string {
	v, err := n.obj.GetProperty("org.a11y.atspi.Text.CharacterCount")
	if err != nil {
		return ""
	}
	count, _ := v.Value().(int32)
	var s string
	if err := n.obj.CallWithContext(ctx, "org.a11y.atspi.Text.GetText", 0, int32(0), count).Store(&s); err != nil {
		return ""
	}
	return s
}

// textOf is what a reader hears of a label: its text, else its name (Qt's and Swing's labels have no Text).
func textOf(ctx context.Context, n node) string {
	if s := readText(ctx, n); s != "" {
		return s
	}
	return n.name
}

// TestStartProgram starts a Debian app as it is and behind a shell that forks it, finds each by the
// registered process, and checks the errors of programs that are missing or end before they register.
func TestStartProgram(t *testing.T) {
	s := startSession(t)
	ctx := testkit.Context(t, 30*time.Second)

	direct, err := s.StartProgram(ctx, "widget-factory", []string{"gtk3-widget-factory"})
	if err != nil {
		t.Fatal(err)
	}
	// The shell forks it (a command before "exit" is not exec'd): the app is a child of the started process.
	wrapped, err := s.StartProgram(ctx, "wrapped", []string{"sh", "-c", "gtk3-widget-factory; exit 0"})
	if err != nil {
		t.Fatal(err)
	}
	if direct.PID != direct.Spawned {
		t.Errorf("direct: registered pid %d, spawned %d", direct.PID, direct.Spawned)
	}
	if wrapped.PID == wrapped.Spawned || !descends(wrapped.PID, wrapped.Spawned) {
		t.Errorf("wrapped: registered pid %d, spawned %d: want a child of the shell", wrapped.PID, wrapped.Spawned)
	}
	regs, err := s.RegisteredApps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []*App{direct, wrapped} {
		if regs[a.PID] != a.Bus || a.Bus == "" {
			t.Errorf("%s: registry %v, want pid %d on %q", a.Kind, regs, a.PID, a.Bus)
		}
		var nodes []node
		if err := walkTree(ctx, s.aconn, a.Bus, registryRoot, 0, &nodes); err != nil {
			t.Fatal(err)
		}
		if nodes[0].name != "gtk3-widget-factory" || nodes[1].role != roleFrame {
			t.Errorf("%s: app %v, window %v", a.Kind, nodes[0], nodes[1])
		}
		if !strings.HasSuffix(a.Log, "/logs/"+a.Kind+"-1.log") {
			t.Errorf("%s: log %s", a.Kind, a.Log)
		}
	}
	// Kill ends the process group: the forked app goes too.
	if err := wrapped.Kill(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WaitRegistered(testkit.Context(t, 5*time.Second), wrapped.PID, false); err != nil {
		t.Error(err)
	}

	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"/nonexistent/gtk3-widget-factory"}, "apt-get install -y --no-install-recommends gtk-3-examples"},
		{[]string{"axbus-no-such-program"}, "install the Debian package that provides it"},
		{[]string{"false"}, "exited (exit status 1) before it registered"},
		{[]string{"true"}, "leaving no process of its own"},
	} {
		t0 := time.Now()
		_, err := s.StartProgram(ctx, "failing", c.argv)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.argv, err, c.want)
		}
		if d := time.Since(t0); d > 2*time.Second {
			t.Errorf("%q: failed after %v, want at once", c.argv, d)
		}
	}
	if _, err := s.StartProgram(ctx, "a b", []string{"true"}); err == nil {
		t.Error("a name with a space accepted")
	}
}

// TestStartProgramTimeout: a program that never registers fails at the context's deadline, its log's tail
// in the error.
func TestStartProgramTimeout(t *testing.T) {
	s := startSession(t)
	t0 := time.Now()
	_, err := s.StartProgram(testkit.Context(t, 700*time.Millisecond), "silent", []string{"sh", "-c", "echo started; exec sleep 60"})
	if err == nil || !strings.Contains(err.Error(), "no app of it in the AT-SPI registry with a showing top-level window") ||
		!strings.Contains(err.Error(), "--- silent-1.log ---\nstarted") {
		t.Errorf("a program that never registers: %v", err)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("gave up after %v, want at the deadline", d)
	}
}
