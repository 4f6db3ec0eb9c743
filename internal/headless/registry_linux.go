//go:build linux

package headless

import (
	"context"
	"errors"
	"fmt"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/internal/pace"
	"github.com/godbus/dbus/v5"
)

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
	var name string
	err := backoff.Retry(func() error {
		regs, err := s.RegisteredApps(ctx)
		switch {
		case errors.Is(err, errClosed):
			return backoff.Permanent(err)
		case err != nil:
			return err
		}
		n, ok := regs[pid]
		if ok != present {
			return errNotYet
		}
		name = n
		return nil
	}, pace.Every(ctx, pollInterval, 0))
	if err != nil {
		verb := "appear in"
		if !present {
			verb = "leave"
		}
		return "", fmt.Errorf("headless: pid %d did not %s the AT-SPI registry: %w", pid, verb, err)
	}
	return name, nil
}
