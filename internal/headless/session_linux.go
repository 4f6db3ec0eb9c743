//go:build linux

package headless

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

const (
	a11yBusName   = "org.a11y.Bus"
	a11yBusPath   = "/org/a11y/bus"
	registryName  = "org.a11y.atspi.Registry"
	registryRoot  = "/org/a11y/atspi/accessible/root"
	startCap      = 30 * time.Second // no step of Start or StartApp waits longer, whatever the context says
	sunPathMax    = 107              // a Unix socket path's limit (108 bytes with the NUL)
	sessionEnvTxt = "session.env"
)

// sessionMarker is the environment variable every process of a session carries; its value is the session dir.
const sessionMarker = "AXBUS_HEADLESS_SESSION"

// errClosed is returned by StartApp on a closed session.
var errClosed = errors.New("headless: session closed")

// state is the private part of a Session.
type state struct {
	log      *slog.Logger
	ownDir   bool   // Start created Dir (Close removes it whole)
	runtime  string // XDG_RUNTIME_DIR
	xvfb     *child
	bus      *child
	services []proc // at-spi-bus-launcher, the accessibility bus, at-spi2-registryd (found over D-Bus)
	sconn    *dbus.Conn
	aconn    *dbus.Conn

	mu       sync.Mutex
	apps     []*App
	browsers []*Browser
	appSeq   map[string]int
	closed   bool
	pidCache map[string]int // accessibility bus name -> pid
	fixtures string         // where the fixture scripts are (resolved on the first StartApp)
	web      string         // where the web pages are (resolved on the first StartBrowser)

	closeOnce sync.Once
	closeErr  error
}

// unsetEnv are the variables of the caller's environment that must not reach the session's processes: they
// would connect them to the caller's desktop, buses or accessibility settings.
var unsetEnv = []string{
	"NO_AT_BRIDGE", "GTK_A11Y", "AT_SPI_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS",
	"DBUS_STARTER_BUS_TYPE", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR", "SESSION_MANAGER",
	"GDK_BACKEND", "GSETTINGS_BACKEND", sessionMarker, programMarker, "AXBUS_FIXTURE_SOCKET",
}

// Start starts a private headless session: Xvfb, a session bus, the accessibility bus and the AT-SPI registry.
// It takes about 0.3 s. When a program it needs is missing the error names the Debian package to install. The
// context bounds the start only; Close ends the session.
func Start(ctx context.Context, opts ...Option) (_ *Session, err error) {
	cfg := config{log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(&cfg)
	}
	if err := sessionTools(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, startCap)
	defer cancel()
	t0 := time.Now()
	s := &Session{state: &state{log: cfg.log, appSeq: map[string]int{}, pidCache: map[string]int{}}}
	if err := s.makeDir(cfg.dir); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	if err := s.startXvfb(ctx); err != nil {
		return nil, err
	}
	if err := s.startSessionBus(ctx); err != nil {
		return nil, err
	}
	if err := s.startA11y(ctx); err != nil {
		return nil, err
	}
	if err := s.writeSessionEnv(); err != nil {
		return nil, err
	}
	s.log.Info("headless session up", "dir", s.Dir, "display", s.Display, "took", time.Since(t0).Round(time.Millisecond))
	return s, nil
}

// makeDir prepares the session dir, its runtime dir (XDG_RUNTIME_DIR) and its log dir.
func (s *Session) makeDir(dir string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "axbus-headless-")
		if err != nil {
			return fmt.Errorf("headless: %w", err)
		}
		s.Dir, s.ownDir = d, true
	} else {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return fmt.Errorf("headless: %w", err)
		}
		s.Dir = abs
		switch fi, err := os.Stat(abs); {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.MkdirAll(abs, 0o700); err != nil {
				return fmt.Errorf("headless: %w", err)
			}
			s.ownDir = true
		case err != nil:
			return fmt.Errorf("headless: %w", err)
		case !fi.IsDir():
			return fmt.Errorf("headless: %s is not a directory", abs)
		default:
			if c, err := net.DialTimeout("unix", filepath.Join(abs, "session_bus"), time.Second); err == nil {
				_ = c.Close()
				return fmt.Errorf("headless: a session already runs in %s", abs)
			}
			// What an earlier session in this dir left behind: its processes and files.
			s.endProcs(markedProcs(abs))
			s.removeEntries()
		}
	}
	if err := os.Chmod(s.Dir, 0o700); err != nil {
		return fmt.Errorf("headless: %w", err)
	}
	s.runtime = filepath.Join(s.Dir, "runtime")
	for _, d := range []string{s.runtime, filepath.Join(s.Dir, "logs")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return fmt.Errorf("headless: %w", err)
		}
	}
	if n := len(filepath.Join(s.Dir, "gtk3-999.sock")); n > sunPathMax {
		return fmt.Errorf("headless: dir %s is too long for Unix socket paths (%d bytes, at most %d)", s.Dir, n, sunPathMax)
	}
	return nil
}

// baseEnv is the caller's environment without the variables of unsetEnv, plus the session's runtime dir and
// marker.
func (s *Session) baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(unsetEnv, k) {
			env = append(env, kv)
		}
	}
	return append(env, "XDG_RUNTIME_DIR="+s.runtime, sessionMarker+"="+s.Dir)
}

// desktopEnv adds the display, its cookie and the toolkit settings every program of the session gets.
func (s *Session) desktopEnv() []string {
	env := append(s.baseEnv(),
		"DISPLAY="+s.Display,
		"XAUTHORITY="+s.XAuthority, // Xvfb refuses clients without its cookie
		"GDK_BACKEND=x11",          // never the caller's Wayland compositor
		"GSETTINGS_BACKEND=memory", // no dconf-service activated on the session bus, no writes to ~/.config
	)
	// GTK 4 on Xvfb's software GL (llvmpipe): the cairo renderer takes half the CPU, and without GL an app takes
	// 45 MB instead of 105 MB and 4 threads instead of 9. The caller's settings win.
	if os.Getenv("GSK_RENDERER") == "" {
		env = append(env, "GSK_RENDERER=cairo")
	}
	if os.Getenv("GDK_DEBUG") == "" {
		env = append(env, "GDK_DEBUG=gl-disable")
	}
	return env
}

// Env is the environment for programs in the session: the caller's environment without its desktop, bus and
// accessibility variables, plus DISPLAY, XAUTHORITY, DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR of the session,
// GDK_BACKEND=x11, GSETTINGS_BACKEND=memory, GSK_RENDERER=cairo and GDK_DEBUG=gl-disable (unless set) and
// AXBUS_HEADLESS_SESSION=<dir>.
// AT_SPI_BUS_ADDRESS is left unset: programs find the accessibility bus through the session bus, as on a
// desktop. Close ends every process still running with this environment.
func (s *Session) Env() []string {
	return append(s.desktopEnv(), "DBUS_SESSION_BUS_ADDRESS="+s.SessionBus)
}

// writeSessionEnv writes DIR/session.env, shell exports for joining the session from another terminal.
func (s *Session) writeSessionEnv() error {
	var b strings.Builder
	b.WriteString("# axbus headless session: `. session.env` joins it.\n")
	for _, kv := range [][2]string{
		{"DISPLAY", s.Display}, {"XAUTHORITY", s.XAuthority}, {"DBUS_SESSION_BUS_ADDRESS", s.SessionBus},
		{"XDG_RUNTIME_DIR", s.runtime}, {"GDK_BACKEND", "x11"}, {"GSETTINGS_BACKEND", "memory"},
	} {
		b.WriteString(exportLine(kv[0], kv[1]) + "\n")
	}
	// AT_SPI_BUS_ADDRESS stays unset, as on a desktop: with it Qt 6.4 connects to the bus and never
	// registers (its bridge misses the switch-on).
	b.WriteString("unset NO_AT_BRIDGE GTK_A11Y WAYLAND_DISPLAY AT_SPI_BUS_ADDRESS\n")
	if err := os.WriteFile(filepath.Join(s.Dir, sessionEnvTxt), []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("headless: %w", err)
	}
	return nil
}
