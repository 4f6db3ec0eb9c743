//go:build linux || darwin

package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// nats-server does not lock its JetStream store across processes, so the
// daemon takes this lock before touching anything in the state directory.
// flock(2) locks belong to the open file: they go away when the process dies
// (no stale locks) and conflict even between two opens in one process. The
// lock file is never removed: removing it would let two daemons lock two
// different files of the same name.

// errLocked means another open file holds the lock.
var errLocked = errors.New("state dir is locked")

// Retries cover a client's Discover holding a shared lock for an instant.
const (
	lockAttempts = 5
	lockRetry    = 10 * time.Millisecond
)

type dirLock struct {
	f *os.File
}

// acquireLock takes the exclusive lock of the state directory dir, or returns
// errLocked.
func acquireLock(dir string) (*dirLock, error) {
	path := filepath.Join(dir, lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, privateFileMod)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	err = backoff.Retry(func() error {
		err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if err != nil && !errors.Is(err, syscall.EWOULDBLOCK) {
			return backoff.Permanent(err)
		}
		return err
	}, backoff.WithMaxRetries(backoff.NewConstantBackOff(lockRetry), lockAttempts-1))
	if err == nil {
		return &dirLock{f: f}, nil
	}
	_ = f.Close()
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, errLocked
	}
	return nil, fmt.Errorf("lock %s: %w", path, err)
}

// release unlocks; closing the file alone would do, unlocking first says so.
func (l *dirLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	uerr := flock(l.f, syscall.LOCK_UN)
	cerr := l.f.Close()
	l.f = nil
	return errors.Join(uerr, cerr)
}

// lockHeld reports whether a daemon holds the lock of state directory dir.
// It briefly takes a shared lock, so it never blocks a daemon for long.
func lockHeld(dir string) (bool, error) {
	f, err := os.Open(filepath.Join(dir, lockFileName))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("open lock file: %w", err)
	}
	defer f.Close()
	err = flock(f, syscall.LOCK_SH|syscall.LOCK_NB)
	switch {
	case err == nil:
		_ = flock(f, syscall.LOCK_UN)
		return false, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return true, nil
	default:
		return false, fmt.Errorf("test lock: %w", err)
	}
}

// flock retries on EINTR, which Go's runtime signals can cause.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
