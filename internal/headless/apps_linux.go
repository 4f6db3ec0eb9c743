//go:build linux

package headless

import (
	"bufio"
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/axbus/axbus/fixtures/apps"
)

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
