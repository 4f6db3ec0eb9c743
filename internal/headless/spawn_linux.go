//go:build linux

package headless

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/internal/pace"
	"github.com/godbus/dbus/v5"
)

// xvfbScreen is the size and depth of the session's screen.
const xvfbScreen = "1280x1024x24"

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
// -noreset: by default the server resets when its last client leaves, and a reset clears the root window's
// properties; at-spi-bus-launcher connects, sets AT_SPI_BUS there and leaves before any app has come, and Qt
// finds the accessibility bus through that property (without it Qt 5.15 never reaches the registry).
func (s *Session) startXvfb(ctx context.Context) error {
	if err := s.makeXAuthority(); err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("headless: %w", err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-nolisten", "tcp", "-noreset", "-auth", s.XAuthority, "-screen", "0", xvfbScreen)
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
	var last error // the last look's, for the message
	if backoff.Retry(func() error {
		var addr string
		last = obj.CallWithContext(ctx, a11yBusName+".GetAddress", 0).Store(&addr)
		if last == nil && addr != "" {
			s.A11yBus = addr
			return nil
		}
		return errNotYet
	}, pace.Every(ctx, pollInterval, 0)) != nil {
		return fmt.Errorf("headless: the accessibility bus did not come up (%v): is at-spi2-core installed?%s",
			last, logTail(logPath))
	}
	// Qt and Chromium expose their tree only when this is true; GTK ignores it.
	if err := obj.SetProperty("org.a11y.Status.IsEnabled", dbus.MakeVariant(true)); err != nil {
		return fmt.Errorf("headless: set org.a11y.Status.IsEnabled: %w", err)
	}
	var err error
	if s.aconn, err = dbus.Connect(s.A11yBus); err != nil {
		return fmt.Errorf("headless: accessibility bus %s: %w", s.A11yBus, err)
	}
	if backoff.Retry(func() error {
		var refs []accRef
		last = s.aconn.Object(registryName, registryRoot).
			CallWithContext(ctx, "org.a11y.atspi.Accessible.GetChildren", 0).Store(&refs)
		return last
	}, pace.Every(ctx, pollInterval, 0)) != nil {
		return fmt.Errorf("headless: the AT-SPI registry did not come up: %v%s", last, logTail(logPath))
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
