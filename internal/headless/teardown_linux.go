//go:build linux

package headless

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/internal/pace"
	"github.com/godbus/dbus/v5"
)

const (
	termGrace = 1500 * time.Millisecond // how long a process has to end after SIGTERM
	killGrace = 2 * time.Second         // how long a process has to be gone after SIGKILL
	reapPoll  = 5 * time.Millisecond    // how often the teardown looks whether they are gone
)

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
			_ = syscall.Kill(-a.Spawned, syscall.SIGKILL) // its group: what it started goes too
		}
	}
	for _, a := range apps {
		a.end() // killed above: waits for it
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
		var alive []proc
		_ = backoff.Retry(func() error {
			alive = nil
			for _, p := range all {
				if p.alive() {
					alive = append(alive, p)
				}
			}
			if len(alive) > 0 {
				return errNotYet
			}
			return nil
		}, pace.Every(context.Background(), reapPoll, d))
		return alive
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
