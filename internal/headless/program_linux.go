//go:build linux

package headless

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/internal/pace"
)

const (
	// programCap bounds StartProgram: a large program (LibreOffice, Firefox) on 2 cores and software
	// rendering takes seconds to show its first window.
	programCap = 60 * time.Second
	// programMarker, in a program's environment, names the program it belongs to (DIR/<name>): its
	// descendants carry it even where they leave its process tree (a launcher that hands over and exits).
	programMarker = "AXBUS_HEADLESS_PROGRAM"
	// atspiStateShowing is ATSPI_STATE_SHOWING's bit in the first word of GetState.
	atspiStateShowing = 25
)

var programName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// StartProgram starts argv (argv[0] looked up on PATH) in the session, with s.Env() and extraEnv (KEY=VALUE),
// and returns once an app of it is in the AT-SPI registry with a showing top-level window: the process it
// started or one of that process's descendants (what a wrapper script such as LibreOffice's soffice starts, a
// browser's child processes; a descendant that left the tree is still found by the environment it inherited). App.PID is the registered
// process, App.Spawned the started one. name (letters, digits, '.', '_', '-') is App.Kind and names the log,
// DIR/logs/<name>-<n>.log, which holds the program's stderr and stdout. A missing program's error names the
// Debian package that has it, where preflight_linux.go knows it. It waits 60 s at most (less if ctx says
// so); a program that exits with an error before it registers fails at once. The session ends the program
// (its process group and whatever carries the session's environment) when it closes.
func (s *Session) StartProgram(ctx context.Context, name string, argv []string, extraEnv ...string) (*App, error) {
	if !programName.MatchString(name) {
		return nil, fmt.Errorf("headless: program name %q: want 1-64 letters, digits, '.', '_' or '-'", name)
	}
	if len(argv) == 0 {
		return nil, errors.New("headless: StartProgram needs a command line")
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, missingProgram(argv[0])
	}
	logName, err := s.nextName(name)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0] // as given: some programs read their name from it
	cmd.Env = append(s.Env(), extraEnv...)
	return s.start(ctx, launch{kind: name, name: logName, what: filepath.Base(argv[0]), cmd: cmd, window: true,
		bound: programCap})
}

// appState is what an App of this platform holds besides its exported fields.
type appState struct {
	out      *output
	regStart uint64 // the registered process's start time (see proc), so that a reused pid is never signalled
}

// child is one process the session started itself.
type child struct {
	name string
	cmd  *exec.Cmd
	done chan struct{} // closed once the process is reaped
	err  error         // its wait error, set before done closes
}

func (c *child) exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// launch is one program for start: how it runs and what says that it is up.
type launch struct {
	kind   string        // App.Kind
	name   string        // from nextName: the log's name, and the program's marker
	what   string        // for messages: "qt5 fixture", "gtk3-widget-factory"
	cmd    *exec.Cmd     // its Env set, its Stdout not
	socket string        // App.Socket
	ready  bool          // it prints "READY <pid>" once its window is shown: wait for that first
	window bool          // wait for a showing top-level window of the registered app, not only for the app
	bound  time.Duration // the longest the start may take
}

// start runs l.cmd in its own process group, its stdout kept (App.Output) and logged, and waits until it is
// up as l says.
func (s *Session) start(ctx context.Context, l launch) (_ *App, err error) {
	ctx, cancel := context.WithTimeout(ctx, l.bound)
	defer cancel()
	t0 := time.Now()
	marker := programMarker + "=" + filepath.Join(s.Dir, l.name)
	l.cmd.Env = append(l.cmd.Env, marker)
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("headless: %w", err)
	}
	l.cmd.Stdout = w
	drained := make(chan struct{}) // the stdout reader ends with the last process holding the pipe's write end
	c, logPath, err := s.spawn(l.what, l.name, l.cmd, syscall.SIGKILL, drained)
	w.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	pid := l.cmd.Process.Pid
	a := &App{Kind: l.kind, PID: pid, Spawned: pid, Socket: l.socket, Log: logPath, proc: c, appState: appState{out: newOutput()}}
	ready := make(chan struct{})
	go a.out.read(r, logPath, "READY "+strconv.Itoa(pid), ready, drained)
	s.mu.Lock()
	s.apps = append(s.apps, a)
	closed := s.closed
	s.mu.Unlock()
	defer func() {
		if err != nil {
			a.end()
		}
	}()
	if closed {
		return nil, errClosed
	}

	if l.ready {
		select {
		case <-ready:
		case <-c.done:
			return nil, fmt.Errorf("headless: %s exited before READY (%v)%s", l.what, c.err, logTail(logPath))
		case <-ctx.Done():
			return nil, fmt.Errorf("headless: %s not ready: %w%s", l.what, ctx.Err(), logTail(logPath))
		}
	}
	tReady := time.Since(t0)
	if err := s.waitApp(ctx, a, []byte(marker), l.window); err != nil {
		return nil, fmt.Errorf("headless: %s (pid %d): %w%s", l.what, pid, err, logTail(logPath))
	}
	s.log.Debug("headless: app up", "app", l.name, "pid", a.PID, "spawned", pid, "ready", tReady.Round(time.Millisecond),
		"registered", time.Since(t0).Round(time.Millisecond))
	return a, nil
}

// waitApp waits until an app of a's program is in the AT-SPI registry, with a showing top-level window if
// window says so, and sets a.PID and a.Bus to it.
func (s *Session) waitApp(ctx context.Context, a *App, marker []byte, window bool) error {
	seen := "no app of its process tree registered"
	var final error // why looking again is pointless
	err := backoff.Retry(func() error {
		regs, err := s.RegisteredApps(ctx)
		switch {
		case errors.Is(err, errClosed):
			final = err
			return backoff.Permanent(err)
		case err != nil:
			return err
		}
		for _, pid := range ownApps(regs, a.Spawned, marker) {
			if window {
				shown, err := s.showsWindow(ctx, regs[pid])
				if !shown {
					seen = fmt.Sprintf("pid %d registered as %s without a showing top-level window (last error: %v)", pid, regs[pid], err)
					continue
				}
			}
			p, ok := procOf(pid)
			if !ok {
				continue // gone since
			}
			a.PID, a.Bus, a.regStart = pid, regs[pid], p.start
			return nil
		}
		if a.proc.exited() {
			switch {
			case a.proc.err != nil:
				final = fmt.Errorf("exited (%v) before it registered", a.proc.err)
			case !anyMarked(marker):
				final = errors.New("exited (status 0) before it registered, leaving no process of its own: a " +
					"launcher whose program runs elsewhere (an instance already running, a D-Bus service) cannot be followed")
			}
			if final != nil {
				return backoff.Permanent(final)
			}
		}
		return errNotYet
	}, pace.Every(ctx, pollInterval, 0))
	switch {
	case err == nil:
		return nil
	case final != nil:
		return final
	}
	what := "app of it in the AT-SPI registry"
	if window {
		what += " with a showing top-level window"
	}
	return fmt.Errorf("no %s: %w (%s)", what, err, seen)
}

// ownApps lists the registered pids that belong to the program started as root: root itself, its
// descendants, and processes carrying its marker; root first, then in pid order.
func ownApps(regs map[int]string, root int, marker []byte) []int {
	var out []int
	for pid := range regs {
		if pid == root || descends(pid, root) || marked(pid, "environ", marker, true) {
			out = append(out, pid)
		}
	}
	slices.SortFunc(out, func(a, b int) int {
		switch {
		case a == root:
			return -1
		case b == root:
			return 1
		}
		return a - b
	})
	return out
}

// showsWindow reports whether the app on bus has a top-level window (a child of its application object) in
// the SHOWING state.
func (s *Session) showsWindow(ctx context.Context, bus string) (bool, error) {
	if s.aconn == nil {
		return false, errClosed
	}
	var refs []accRef
	if err := s.aconn.Object(bus, registryRoot).CallWithContext(ctx, "org.a11y.atspi.Accessible.GetChildren", 0).Store(&refs); err != nil {
		return false, err
	}
	var last error
	for _, r := range refs {
		var st []uint32
		if err := s.aconn.Object(r.Name, r.Path).CallWithContext(ctx, "org.a11y.atspi.Accessible.GetState", 0).Store(&st); err != nil {
			last = err
			continue
		}
		if len(st) > 0 && st[0]&(1<<atspiStateShowing) != 0 {
			return true, nil
		}
	}
	return false, last
}

// signal sends sig to the app's process group (spawn gives each program its own) while the started process
// has not been reaped: until then the group's id cannot be reused. After that, to the registered process if
// it is another one and still runs.
func (a *App) signal(sig syscall.Signal) error {
	target := -a.Spawned
	if a.proc.exited() {
		if reg := (proc{pid: a.PID, start: a.regStart}); a.PID == a.Spawned || a.regStart == 0 || !reg.alive() {
			return fmt.Errorf("headless: %s (pid %d) has exited", a.proc.name, a.PID)
		}
		target = a.PID
	}
	if err := syscall.Kill(target, sig); err != nil {
		return fmt.Errorf("headless: %s app %d: %w", a.Kind, a.PID, err)
	}
	return nil
}

// end kills the app's process group, unless the started process is already reaped (what it left carries the
// session's marker: Close ends it), and waits (bounded) until it is.
func (a *App) end() {
	if !a.proc.exited() {
		_ = syscall.Kill(-a.Spawned, syscall.SIGKILL)
	}
	select {
	case <-a.proc.done:
	case <-time.After(killGrace):
	}
}
