//go:build !linux

package headless

import (
	"context"
	"errors"
	"syscall"
)

type state struct{}

type appState struct{}

// child is a process the session started: none off Linux.
type child struct {
	done chan struct{}
	err  error
}

var errNotLinux = errors.New("headless: sessions need Linux (Xvfb, D-Bus and AT-SPI2)")

// Start fails: headless sessions run on Linux only.
func Start(ctx context.Context, opts ...Option) (*Session, error) { return nil, errNotLinux }

// Available reports that headless sessions need Linux.
func Available() error { return errNotLinux }

// Env is empty off Linux.
func (s *Session) Env() []string { return nil }

// StartApp fails off Linux.
func (s *Session) StartApp(ctx context.Context, kind string, extraEnv ...string) (*App, error) {
	return nil, errNotLinux
}

// StartProgram fails off Linux.
func (s *Session) StartProgram(ctx context.Context, name string, argv []string, extraEnv ...string) (*App, error) {
	return nil, errNotLinux
}

// FixtureAvailable reports that the fixture apps need Linux.
func FixtureAvailable(kind string) error { return errNotLinux }

func (a *App) signal(sig syscall.Signal) error {
	_ = a.appState
	return errNotLinux
}

// RegisteredApps fails off Linux.
func (s *Session) RegisteredApps(ctx context.Context) (map[int]string, error) {
	return nil, errNotLinux
}

// WaitRegistered fails off Linux.
func (s *Session) WaitRegistered(ctx context.Context, pid int, present bool) (string, error) {
	return "", errNotLinux
}

// Close does nothing off Linux.
func (s *Session) Close() error {
	_ = s.state
	return nil
}

// JoinEnv fails off Linux.
func JoinEnv(dir string) ([]string, error) { return nil, errNotLinux }
