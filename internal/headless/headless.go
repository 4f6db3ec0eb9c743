// Package headless runs a private, display-less Linux desktop session for tests and demos: Xvfb, a session
// D-Bus, the AT-SPI2 accessibility bus and registry, the GTK fixture apps of fixtures/apps, each app
// answering control requests on a Unix socket, the matrix fixtures (Qt 5, Qt 6, Swing, WebKitGTK: the same
// controls on each toolkit, their effects printed on stdout), any other program (StartProgram), and Chromium
// on the pages of fixtures/web, read and driven over the DevTools protocol.
//
// The recipe and its traps are in research/linux-atspi.md (the project's shared research notes). In short: a
// private directory (0700) holds the session's XDG_RUNTIME_DIR, bus socket, app sockets and logs, so that
// sessions running in parallel never meet. Xvfb lets in only the clients that present the MIT-MAGIC-COOKIE-1 of
// DIR/Xauthority (0600): XAUTHORITY names it to every process of the session, Session.XAuthority to axbus's
// backend. The session bus starts after DISPLAY, XAUTHORITY and XDG_RUNTIME_DIR are set, because D-Bus-activated
// services (at-spi-bus-launcher, and through it the accessibility bus and at-spi2-registryd) inherit its
// environment. Every process of the session carries the environment variable
// AXBUS_HEADLESS_SESSION=<dir>; Close finds them all by it (and by their recorded PIDs) and ends them, treats
// zombies as dead, and removes what it created.
//
// Sessions work on Linux only; elsewhere Start and Available report that (session_other.go).
//
// headless.go holds the Session and App types, Start's options and where the fixtures are found;
// control.go the client of the apps' control socket (App.Do, App.State, FixtureControl); output.go
// what an app prints on stdout (App.Output, App.WaitOutput). The Linux files: session_linux.go is
// Start, the session's dir and its environment; spawn_linux.go starts its processes (Xvfb, the
// session bus, the accessibility services) and waits for them; registry_linux.go reads the AT-SPI
// registry (RegisteredApps, WaitRegistered); program_linux.go is StartProgram and the start every
// app shares (its process group, its stdout, the wait until it or a descendant is registered, with
// a showing window); apps_linux.go is StartApp, the fixtures' command lines; java_linux.go finds
// Java and the ATK wrapper for the Swing fixture; browser_linux.go, browser_type_linux.go and
// cdp_linux.go are StartBrowser, Browser and its DevTools client; teardown_linux.go is Close;
// preflight_linux.go names the Debian packages a session or a fixture lacks (Available,
// FixtureAvailable) and those of missing programs; proc_linux.go finds processes by pid and start
// time, by ancestry and by the session's marker; xauth_linux.go writes the session's cookie;
// poll_linux.go paces the waits that poll; join_linux.go is JoinEnv, the environment of a program
// joining a running session.
package headless

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// The fixture apps' content that tests rely on (fixtures/apps/fixture_control.py is the source of truth).
const (
	// FixturePassword is the text of the fixtures' password field. It must never leave axbus.
	FixturePassword = "hunter2-Secret-Passw0rd"
	// FixtureRows is the number of rows of the fixtures' "Rows" list ("Row 1" .. "Row 400").
	FixtureRows = 400
	// KindGTK3 and KindGTK4 are the GTK fixtures (gtk3_fixture.py, gtk4_fixture.py), with a control socket.
	KindGTK3 = "gtk3"
	KindGTK4 = "gtk4"
	// KindQt5, KindQt6, KindSwing and KindWebKit are the conformance-matrix fixtures (qt_fixture.py,
	// SwingFixture.java, webkit_fixture.py): one window of the same controls on each toolkit, their effects
	// printed on stdout (App.WaitOutput), no control socket.
	KindQt5    = "qt5"
	KindQt6    = "qt6"
	KindSwing  = "swing"
	KindWebKit = "webkit"
)

// swingSource is the Swing fixture, run as a single source file.
const swingSource = "SwingFixture.java"

// FixtureKinds lists every fixture kind StartApp knows, the GTK ones first.
var FixtureKinds = []string{KindGTK3, KindGTK4, KindQt5, KindQt6, KindSwing, KindWebKit}

// The matrix fixtures' content that tests rely on (fixtures/apps/fixture_matrix.py is the source of truth).
const (
	// MatrixParagraph1 and MatrixParagraph2 are the two paragraphs of the matrix fixtures' read-only
	// "Document", a blank line between them.
	MatrixParagraph1 = "First paragraph of the document."
	MatrixParagraph2 = "Second paragraph, after a blank line."
)

// isGTK reports whether kind is a GTK fixture: the ones with a control socket.
func isGTK(kind string) bool { return kind == KindGTK3 || kind == KindGTK4 }

// Python is the interpreter the fixture apps run with: the system one, which has gi (a python3 found on PATH
// may be a pyenv build without it).
var Python = "/usr/bin/python3"

// WindowTitle is the title of the main window of a fixture kind: "axbus fixture (GTK3)" for the GTK ones,
// "axbus qt5 fixture" for the matrix ones.
func WindowTitle(kind string) string {
	if isGTK(kind) {
		return "axbus fixture (" + strings.ToUpper(kind) + ")"
	}
	return "axbus " + kind + " fixture"
}

// AppName is the name a fixture kind registers under in the AT-SPI registry ("axbus-fixture-gtk3"); the
// Swing fixture's is its window's title, as Java's ATK wrapper names an app after its first window.
func AppName(kind string) string {
	if kind == KindSwing {
		return WindowTitle(kind)
	}
	return "axbus-fixture-" + kind
}

// Option configures Start.
type Option func(*config)

type config struct {
	dir string
	log *slog.Logger
}

// WithDir runs the session in dir (created 0700 if missing) instead of a fresh temporary directory, so that
// other programs can find it: DIR/session.env holds the session's DISPLAY, XAUTHORITY, DBUS_SESSION_BUS_ADDRESS,
// and XDG_RUNTIME_DIR as shell exports, and the apps' sockets are DIR/<kind>-<n>.sock. Start
// refuses a dir whose session still runs. Close removes what the session created in dir, and dir itself only if
// Start created it.
func WithDir(dir string) Option {
	return func(c *config) { c.dir = dir }
}

// WithLogger logs the session's steps (debug) and its start and stop (info). The default discards.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.log = l
		}
	}
}

// Session is one private headless desktop. Its fields are read-only.
type Session struct {
	Dir        string // the private directory (0700): runtime dir, bus socket, app sockets, logs
	Display    string // the X display of its Xvfb, ":N"
	XAuthority string // the Xauthority file (0600, in Dir) whose cookie the X server asks of every client
	SessionBus string // the address of its session bus
	A11yBus    string // the address of its accessibility bus (at-spi-bus-launcher's)

	*state // per platform
}

// App is one running app of the session: a fixture (StartApp) or any program (StartProgram).
type App struct {
	Kind    string // the fixture kind ("gtk3", "qt5", ...), or the name StartProgram was given
	PID     int    // the process in the AT-SPI registry: Spawned, or one of its descendants
	Spawned int    // the process the session started (a wrapper script, a launcher, or the app itself)
	Bus     string // the registered process's name on the accessibility bus
	Socket  string // the control socket of a GTK fixture; "" for other apps
	Log     string // the app's stderr and stdout, removed with the session

	proc     *child
	appState // per platform
}

// Kill ends the app with SIGKILL, with its process group: the processes it started (a web process, the
// program behind a wrapper) go with it. It then disappears from the AT-SPI registry.
func (a *App) Kill() error { return a.signal(syscall.SIGKILL) }

// Stop freezes the app's process group with SIGSTOP: it stops answering AT-SPI calls and control requests.
func (a *App) Stop() error { return a.signal(syscall.SIGSTOP) }

// Cont resumes an app frozen by Stop.
func (a *App) Cont() error { return a.signal(syscall.SIGCONT) }

// Wait waits for the started process to exit (and everything that shares its stdout: a fixture's web
// process) and returns how it ended (nil for exit status 0, an *exec.ExitError else). It may be called any
// number of times.
func (a *App) Wait() error {
	<-a.proc.done
	return a.proc.err
}

// Done is closed when the started process has exited (see Wait).
func (a *App) Done() <-chan struct{} { return a.proc.done }

// FixtureDir finds fixtures/apps: under the module root (found by walking up from the working directory to the
// go.mod of github.com/axbus/axbus), or next to the executable (DIR/fixtures/apps or DIR/../fixtures/apps).
// StartApp falls back to the copies embedded in the binary when neither exists.
func FixtureDir() (string, error) {
	d, tried := sourceDir("apps", hasFixtures)
	if d == "" {
		return "", fmt.Errorf("headless: fixture apps not found (tried %s)", strings.Join(tried, ", "))
	}
	return d, nil
}

// sourceDir finds fixtures/<sub> as FixtureDir does, accepting a candidate when ok says so; it returns ""
// and the candidates tried when none is.
func sourceDir(sub string, ok func(dir string) bool) (string, []string) {
	var tried []string
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && isOurModule(b) {
				p := filepath.Join(dir, "fixtures", sub)
				if ok(p) {
					return p, nil
				}
				tried = append(tried, p)
				break
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		for _, p := range []string{
			filepath.Join(filepath.Dir(exe), "fixtures", sub),
			filepath.Join(filepath.Dir(exe), "..", "fixtures", sub),
		} {
			if ok(p) {
				return filepath.Clean(p), nil
			}
			tried = append(tried, filepath.Clean(p))
		}
	}
	return "", tried
}

func isOurModule(gomod []byte) bool {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`) == "github.com/axbus/axbus"
		}
	}
	return false
}

func hasFixtures(dir string) bool {
	for _, f := range []string{"fixture_control.py", "gtk3_fixture.py", "gtk4_fixture.py", "fixture_matrix.py",
		"qt_fixture.py", "webkit_fixture.py", swingSource} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return false
		}
	}
	return true
}

func clip(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}
