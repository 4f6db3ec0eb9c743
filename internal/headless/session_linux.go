//go:build linux

package headless

import (
	"bufio"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/fixtures/apps"
)

const (
	a11yBusName   = "org.a11y.Bus"
	a11yBusPath   = "/org/a11y/bus"
	registryName  = "org.a11y.atspi.Registry"
	registryRoot  = "/org/a11y/atspi/accessible/root"
	pollInterval  = 10 * time.Millisecond
	startCap      = 30 * time.Second // no step of Start or StartApp waits longer, whatever the context says
	termGrace     = 1500 * time.Millisecond
	killGrace     = 2 * time.Second
	sunPathMax    = 107 // a Unix socket path's limit (108 bytes with the NUL)
	xvfbScreen    = "1280x1024x24"
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
	"GDK_BACKEND", "GSETTINGS_BACKEND", sessionMarker, "AXBUS_FIXTURE_SOCKET",
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

// spawn starts a child process with its output in DIR/logs/<logName>.log and reaps it when it ends; its done
// channel closes once it is reaped and after (if not nil) is closed.
func (s *Session) spawn(name, logName string, cmd *exec.Cmd, deathSig syscall.Signal, after <-chan struct{}) (*child, string, error) {
	logPath := filepath.Join(s.Dir, "logs", logName+".log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, "", fmt.Errorf("headless: %w", err)
	}
	defer logf.Close()
	if cmd.Stdout == nil {
		cmd.Stdout = logf
	}
	cmd.Stderr = logf
	// Own process group: a terminal's Ctrl-C reaches the caller, which closes the session in order. Pdeathsig:
	// nothing outlives a caller that dies without closing.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: deathSig}
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("headless: start %s: %w", name, err)
	}
	c := &child{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		if after != nil {
			<-after
		}
		close(c.done)
	}()
	s.log.Debug("headless: started", "what", name, "pid", cmd.Process.Pid)
	return c, logPath, nil
}

// readLine reads one line a child prints on the pipe r (its -displayfd or --print-address), giving up when the
// child exits or ctx ends.
func readLine(ctx context.Context, r *os.File, c *child) (string, error) {
	defer r.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = r.SetReadDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = r.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		if c.exited() {
			return "", fmt.Errorf("%s exited (%v)", c.name, c.err)
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", err
	}
	return strings.TrimSpace(line), nil
}

// startXvfb starts the X server, which lets in only the clients that present the cookie of DIR/Xauthority.
func (s *Session) startXvfb(ctx context.Context) error {
	if err := s.makeXAuthority(); err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("headless: %w", err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-nolisten", "tcp", "-auth", s.XAuthority, "-screen", "0", xvfbScreen)
	cmd.Env = s.baseEnv()
	cmd.ExtraFiles = []*os.File{w}
	c, logPath, err := s.spawn("Xvfb", "xvfb", cmd, syscall.SIGTERM, nil)
	w.Close()
	if err != nil {
		r.Close()
		return err
	}
	s.xvfb = c
	n, err := readLine(ctx, r, c)
	if err == nil {
		if _, convErr := strconv.Atoi(n); convErr != nil {
			err = fmt.Errorf("bad display number %q", n)
		}
	}
	if err != nil {
		return fmt.Errorf("headless: Xvfb: %w%s", err, logTail(logPath))
	}
	s.Display = ":" + n
	return nil
}

func (s *Session) startSessionBus(ctx context.Context) error {
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("headless: %w", err)
	}
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile",
		"--address=unix:path="+filepath.Join(s.Dir, "session_bus"), "--print-address=3")
	cmd.Env = s.desktopEnv() // activated services (at-spi-bus-launcher) inherit it
	cmd.ExtraFiles = []*os.File{w}
	c, logPath, err := s.spawn("dbus-daemon (session)", "session-bus", cmd, syscall.SIGTERM, nil)
	w.Close()
	if err != nil {
		r.Close()
		return err
	}
	s.bus = c
	addr, err := readLine(ctx, r, c)
	if err == nil && addr == "" {
		err = errors.New("printed no address")
	}
	if err != nil {
		return fmt.Errorf("headless: session bus: %w%s", err, logTail(logPath))
	}
	s.SessionBus = addr
	if s.sconn, err = dbus.Connect(addr); err != nil {
		return fmt.Errorf("headless: session bus: %w%s", err, logTail(logPath))
	}
	return nil
}

// startA11y activates at-spi-bus-launcher (and so the accessibility bus) and at-spi2-registryd, then records
// their PIDs.
func (s *Session) startA11y(ctx context.Context) error {
	logPath := filepath.Join(s.Dir, "logs", "session-bus.log") // activated services log through the bus
	obj := s.sconn.Object(a11yBusName, a11yBusPath)
	for {
		var addr string
		err := obj.CallWithContext(ctx, a11yBusName+".GetAddress", 0).Store(&addr)
		if err == nil && addr != "" {
			s.A11yBus = addr
			break
		}
		if ctx.Err() != nil {
			return fmt.Errorf("headless: the accessibility bus did not come up (%v): is at-spi2-core installed?%s",
				err, logTail(logPath))
		}
		sleep(ctx, pollInterval)
	}
	// Qt and Chromium expose their tree only when this is true; GTK ignores it.
	if err := obj.SetProperty("org.a11y.Status.IsEnabled", dbus.MakeVariant(true)); err != nil {
		return fmt.Errorf("headless: set org.a11y.Status.IsEnabled: %w", err)
	}
	var err error
	if s.aconn, err = dbus.Connect(s.A11yBus); err != nil {
		return fmt.Errorf("headless: accessibility bus %s: %w", s.A11yBus, err)
	}
	for {
		var refs []accRef
		err := s.aconn.Object(registryName, registryRoot).
			CallWithContext(ctx, "org.a11y.atspi.Accessible.GetChildren", 0).Store(&refs)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return fmt.Errorf("headless: the AT-SPI registry did not come up: %v%s", err, logTail(logPath))
		}
		sleep(ctx, pollInterval)
	}
	for _, q := range []struct {
		conn       *dbus.Conn
		name, what string
	}{
		{s.sconn, a11yBusName, "at-spi-bus-launcher"},
		{s.aconn, "org.freedesktop.DBus", "dbus-daemon (accessibility)"},
		{s.aconn, registryName, "at-spi2-registryd"},
	} {
		pid, err := connPID(ctx, q.conn, q.name)
		if err != nil {
			s.log.Debug("headless: no pid", "what", q.what, "err", err)
			continue
		}
		if p, ok := procOf(pid); ok {
			p.name = q.what
			s.services = append(s.services, p)
			s.log.Debug("headless: started", "what", q.what, "pid", pid)
		}
	}
	return nil
}

// accRef is an AT-SPI object reference: (bus name, object path).
type accRef struct {
	Name string
	Path dbus.ObjectPath
}

func connPID(ctx context.Context, conn *dbus.Conn, name string) (int, error) {
	var pid uint32
	err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetConnectionUnixProcessID", 0, name).Store(&pid)
	return int(pid), err
}

// writeSessionEnv writes DIR/session.env, shell exports for joining the session from another terminal.
func (s *Session) writeSessionEnv() error {
	var b strings.Builder
	b.WriteString("# axbus headless session: `. session.env` joins it.\n")
	for _, kv := range [][2]string{
		{"DISPLAY", s.Display}, {"XAUTHORITY", s.XAuthority}, {"DBUS_SESSION_BUS_ADDRESS", s.SessionBus},
		{"XDG_RUNTIME_DIR", s.runtime},
		{"AT_SPI_BUS_ADDRESS", s.A11yBus}, {"GDK_BACKEND", "x11"}, {"GSETTINGS_BACKEND", "memory"},
	} {
		fmt.Fprintf(&b, "export %s='%s'\n", kv[0], strings.ReplaceAll(kv[1], "'", `'\''`))
	}
	b.WriteString("unset NO_AT_BRIDGE GTK_A11Y WAYLAND_DISPLAY\n")
	if err := os.WriteFile(filepath.Join(s.Dir, sessionEnvTxt), []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("headless: %w", err)
	}
	return nil
}

// RegisteredApps lists the applications in the AT-SPI registry: pid -> accessibility bus name.
func (s *Session) RegisteredApps(ctx context.Context) (map[int]string, error) {
	if s.aconn == nil {
		return nil, errClosed
	}
	var refs []accRef
	if err := s.aconn.Object(registryName, registryRoot).
		CallWithContext(ctx, "org.a11y.atspi.Accessible.GetChildren", 0).Store(&refs); err != nil {
		return nil, fmt.Errorf("headless: registry: %w", err)
	}
	out := make(map[int]string, len(refs))
	for _, r := range refs {
		s.mu.Lock()
		pid, ok := s.pidCache[r.Name]
		s.mu.Unlock()
		if !ok {
			var err error
			if pid, err = connPID(ctx, s.aconn, r.Name); err != nil {
				continue // gone since
			}
			s.mu.Lock()
			s.pidCache[r.Name] = pid
			s.mu.Unlock()
		}
		out[pid] = r.Name
	}
	return out, nil
}

// WaitRegistered waits until pid is in the AT-SPI registry (present) or no longer is (!present), and returns
// its accessibility bus name (when present).
func (s *Session) WaitRegistered(ctx context.Context, pid int, present bool) (string, error) {
	for {
		regs, err := s.RegisteredApps(ctx)
		if err == nil {
			name, ok := regs[pid]
			if ok == present {
				return name, nil
			}
		}
		if ctx.Err() != nil {
			verb := "appear in"
			if !present {
				verb = "leave"
			}
			return "", fmt.Errorf("headless: pid %d did not %s the AT-SPI registry: %w", pid, verb, ctx.Err())
		}
		sleep(ctx, pollInterval)
	}
}

// StartApp starts a fixture app ("gtk3" or "gtk4") in the session and returns once its window is shown, its
// control socket listens and it is in the AT-SPI registry. extraEnv (KEY=VALUE) is added to its environment,
// e.g. AXBUS_FIXTURE_SAVE_DELAY_MS=50.
func (s *Session) StartApp(ctx context.Context, kind string, extraEnv ...string) (_ *App, err error) {
	if kind != KindGTK3 && kind != KindGTK4 {
		return nil, fmt.Errorf("headless: unknown fixture kind %q (gtk3 or gtk4)", kind)
	}
	if err := fixtureToolkit(kind); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, startCap)
	defer cancel()
	t0 := time.Now()
	name, err := s.nextName(kind)
	if err != nil {
		return nil, err
	}
	dir, err := s.fixtureDir()
	if err != nil {
		return nil, err
	}
	sock := filepath.Join(s.Dir, name+".sock")

	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("headless: %w", err)
	}
	cmd := exec.Command(Python, filepath.Join(dir, kind+"_fixture.py"))
	cmd.Env = append(append(s.Env(), "AXBUS_FIXTURE_SOCKET="+sock), extraEnv...)
	cmd.Stdout = w
	drained := make(chan struct{}) // the stdout reader ends with the app (it alone holds the pipe's write end)
	c, logPath, err := s.spawn(kind+" fixture", name, cmd, syscall.SIGKILL, drained)
	w.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	a := &App{Kind: kind, PID: cmd.Process.Pid, Socket: sock, Log: logPath, proc: c}
	ready := make(chan struct{})
	go func() { // READY, then drain stdout until the app exits
		defer close(drained)
		defer r.Close()
		sc := bufio.NewScanner(r)
		readySeen := false
		for sc.Scan() {
			if line := sc.Text(); !readySeen && line == "READY "+strconv.Itoa(a.PID) {
				readySeen = true
				close(ready)
			} else {
				s.log.Debug("headless: fixture output", "app", name, "line", line)
			}
		}
	}()
	s.mu.Lock()
	s.apps = append(s.apps, a)
	closed := s.closed
	s.mu.Unlock()
	defer func() {
		if err != nil {
			_ = a.Kill()
			<-c.done
		}
	}()
	if closed {
		return nil, errClosed
	}

	select {
	case <-ready:
	case <-c.done:
		return nil, fmt.Errorf("headless: %s fixture exited before READY (%v)%s", kind, c.err, logTail(logPath))
	case <-ctx.Done():
		return nil, fmt.Errorf("headless: %s fixture not ready: %w%s", kind, ctx.Err(), logTail(logPath))
	}
	tReady := time.Since(t0)
	if _, err := s.WaitRegistered(ctx, a.PID, true); err != nil {
		return nil, fmt.Errorf("%w%s", err, logTail(logPath))
	}
	s.log.Debug("headless: app up", "app", name, "pid", a.PID, "ready", tReady.Round(time.Millisecond),
		"registered", time.Since(t0).Round(time.Millisecond))
	return a, nil
}

// nextName names the next process of a kind ("gtk3-2", "chromium-1"): its log, socket or profile.
func (s *Session) nextName(kind string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", errClosed
	}
	s.appSeq[kind]++
	return fmt.Sprintf("%s-%d", kind, s.appSeq[kind]), nil
}

// fixtureDir is where the fixture scripts are: the source tree's (FixtureDir), else copies of the embedded
// ones written into DIR/fixtures.
func (s *Session) fixtureDir() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fixtures != "" {
		return s.fixtures, nil
	}
	if d, err := FixtureDir(); err == nil {
		s.fixtures = d
		return d, nil
	}
	d := filepath.Join(s.Dir, "fixtures")
	if err := writeEmbedded(apps.FS, d); err != nil {
		return "", fmt.Errorf("headless: embedded fixtures: %w", err)
	}
	s.fixtures = d
	return d, nil
}

// writeEmbedded writes the files of an embedded folder into dir (created 0700), each 0600: the
// copies a session uses away from the source tree.
func writeEmbedded(files embed.FS, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	entries, err := files.ReadDir(".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, err := files.ReadFile(e.Name())
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, e.Name()), b, 0o600)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Close ends every process of the session (browsers and apps first, then everything carrying the session's
// marker, the recorded services and its own children: SIGTERM, then SIGKILL after 1.5 s), closes its bus
// connections and removes what it created. It may be called more than once.
func (s *Session) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.close() })
	return s.closeErr
}

func (s *Session) close() error {
	t0 := time.Now()
	s.mu.Lock()
	s.closed = true
	apps, browsers := s.apps, s.browsers
	s.mu.Unlock()
	for _, b := range browsers {
		b.end()
	}
	for _, a := range apps {
		if !a.proc.exited() {
			_ = a.proc.cmd.Process.Kill()
		}
	}
	for _, a := range apps {
		select {
		case <-a.proc.done:
		case <-time.After(killGrace):
		}
	}
	for _, c := range []*dbus.Conn{s.aconn, s.sconn} {
		if c != nil {
			_ = c.Close()
		}
	}
	var errs []error
	if s.Dir != "" {
		procs := append(markedProcs(s.Dir), s.services...)
		for _, c := range []*child{s.xvfb, s.bus} {
			if c != nil && !c.exited() {
				if p, ok := procOf(c.cmd.Process.Pid); ok {
					procs = append(procs, p)
				}
			}
		}
		if left := s.endProcs(procs); len(left) > 0 {
			errs = append(errs, fmt.Errorf("headless: processes survived SIGKILL: %v", left))
		}
		for _, c := range []*child{s.xvfb, s.bus} {
			if c != nil {
				select {
				case <-c.done:
				case <-time.After(killGrace):
					errs = append(errs, fmt.Errorf("headless: %s (pid %d) not reaped", c.name, c.cmd.Process.Pid))
				}
			}
		}
		s.removeXLock()
		if s.ownDir {
			if err := os.RemoveAll(s.Dir); err != nil {
				errs = append(errs, fmt.Errorf("headless: %w", err))
			}
		} else {
			s.removeEntries()
		}
	}
	s.log.Info("headless session closed", "dir", s.Dir, "took", time.Since(t0).Round(time.Millisecond))
	return errors.Join(errs...)
}

// endProcs sends SIGTERM to procs, SIGKILL to those alive after termGrace, rescans the session's marker for
// latecomers, and returns what is still alive after killGrace.
func (s *Session) endProcs(procs []proc) []proc {
	seen := map[int]bool{}
	var all []proc
	add := func(ps []proc) {
		for _, p := range ps {
			if !seen[p.pid] {
				seen[p.pid] = true
				all = append(all, p)
				p.signal(syscall.SIGTERM)
			}
		}
	}
	add(procs)
	waitDead := func(d time.Duration) []proc {
		deadline := time.Now().Add(d)
		for {
			var alive []proc
			for _, p := range all {
				if p.alive() {
					alive = append(alive, p)
				}
			}
			if len(alive) == 0 || time.Now().After(deadline) {
				return alive
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	for round := 0; round < 3; round++ {
		if alive := waitDead(termGrace); len(alive) > 0 {
			for _, p := range alive {
				s.log.Debug("headless: SIGKILL", "what", p.name, "pid", p.pid)
				p.signal(syscall.SIGKILL)
			}
			if alive = waitDead(killGrace); len(alive) > 0 {
				return alive
			}
		}
		if s.Dir == "" {
			break
		}
		late := markedProcs(s.Dir)
		if len(late) == 0 {
			break
		}
		add(late)
	}
	return nil
}

// removeXLock removes the lock file and socket of the session's display when Xvfb could not (SIGKILL).
func (s *Session) removeXLock() {
	if s.xvfb == nil || s.Display == "" {
		return
	}
	n := strings.TrimPrefix(s.Display, ":")
	lock := "/tmp/.X" + n + "-lock"
	b, err := os.ReadFile(lock)
	if err != nil {
		return
	}
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid == s.xvfb.cmd.Process.Pid {
		_ = os.Remove(lock)
		_ = os.Remove("/tmp/.X11-unix/X" + n)
	}
}

// removeEntries removes what a session creates in a dir it was given.
func (s *Session) removeEntries() {
	for _, e := range []string{"session_bus", "runtime", "logs", "fixtures", sessionEnvTxt, xauthorityFile} {
		_ = os.RemoveAll(filepath.Join(s.Dir, e))
	}
	for _, k := range []string{KindGTK3, KindGTK4} {
		socks, _ := filepath.Glob(filepath.Join(s.Dir, k+"-*.sock"))
		for _, p := range socks {
			_ = os.Remove(p)
		}
	}
	_ = os.RemoveAll(filepath.Join(s.Dir, "web"))
	profiles, _ := filepath.Glob(filepath.Join(s.Dir, "chromium-*"))
	for _, p := range profiles {
		_ = os.RemoveAll(p)
	}
}

// logTail is the end of a log file, for error messages.
func logTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil || len(strings.TrimSpace(string(b))) == 0 {
		return ""
	}
	const max = 1500
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return "\n--- " + filepath.Base(path) + " ---\n" + strings.TrimSpace(string(b))
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// sessionTools checks the programs Start needs.
func sessionTools() error {
	return missingPackages("a headless session needs", sessionPackages())
}

// sessionPackages lists the Debian packages missing for a session.
func sessionPackages() []string {
	var missing []string
	if _, err := exec.LookPath("Xvfb"); err != nil {
		missing = append(missing, "xvfb")
	}
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		missing = append(missing, "dbus")
	}
	if !serviceInstalled("services", a11yBusName) || !serviceInstalled("accessibility-services", registryName) {
		missing = append(missing, "at-spi2-core")
	}
	return missing
}

// serviceInstalled reports whether a D-Bus service file for name exists in dbus-1/<kind> of the data dirs and
// its Exec program exists.
func serviceInstalled(kind, name string) bool {
	dirs := os.Getenv("XDG_DATA_DIRS")
	if dirs == "" {
		dirs = "/usr/local/share:/usr/share"
	}
	for _, d := range filepath.SplitList(dirs) {
		b, err := os.ReadFile(filepath.Join(d, "dbus-1", kind, name+".service"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if exe, ok := strings.CutPrefix(strings.TrimSpace(line), "Exec="); ok {
				if f := strings.Fields(exe); len(f) > 0 {
					if _, err := os.Stat(f[0]); err == nil {
						return true
					}
				}
			}
		}
	}
	return false
}

func missingPackages(what string, pkgs []string) error {
	if len(pkgs) == 0 {
		return nil
	}
	return fmt.Errorf("headless: %s the Debian packages %s: apt-get install -y --no-install-recommends %s",
		what, strings.Join(pkgs, ", "), strings.Join(pkgs, " "))
}

// pythonCheck lists the Debian packages missing for the fixture apps, per toolkit ("" for the interpreter).
var pythonCheck = sync.OnceValue(func() map[string][]string {
	const script = `
import sys
try:
    import gi
except ImportError:
    print("all python3-gi"); sys.exit(0)
r = gi.Repository.get_default()
for kind, v in (("gtk3", "3.0"), ("gtk4", "4.0")):
    if v not in r.enumerate_versions("Gtk"):
        print(kind, "gir1.2-gtk-" + v)
`
	out, err := exec.Command(Python, "-c", script).Output()
	if err != nil {
		return map[string][]string{"all": {"python3", "python3-gi"}}
	}
	m := map[string][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			m[f[0]] = append(m[f[0]], f[1])
		}
	}
	return m
})

// fixtureToolkit checks that the fixture app of kind can run.
func fixtureToolkit(kind string) error {
	m := pythonCheck()
	return missingPackages(fmt.Sprintf("the %s fixture (%s) needs", kind, Python), append(m["all"], m[kind]...))
}

// Available reports whether headless sessions and both fixture apps can run here: nil, or an error naming the
// Debian packages to install.
func Available() error {
	m := pythonCheck()
	missing := append(sessionPackages(), m["all"]...)
	missing = append(missing, m[KindGTK3]...)
	missing = append(missing, m[KindGTK4]...)
	return missingPackages("headless sessions and the fixture apps need", missing)
}
