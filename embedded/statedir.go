package embedded

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
)

// appDirName is the directory under the OS's per-user state location.
const appDirName = "axbus"

// Names inside the state directory.
const (
	lockFileName   = "lock"
	credsFileName  = "client.nk"
	infoFileName   = "daemon.json"
	jetStreamDir   = "jetstream"
	stateDirPerm   = 0o700
	privateFileMod = 0o600
)

// resolveStateDir returns dir as an absolute path (daemon.json is read by
// clients running elsewhere), or the default when dir is empty.
func resolveStateDir(dir string) (string, error) {
	if dir == "" {
		d, err := DefaultStateDir()
		if err != nil {
			return "", err
		}
		dir = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("state dir %q: %w", dir, err)
	}
	return abs, nil
}

// ensureStateDir creates the state directory private to the user. An
// existing directory is left as it is (it may be one the user chose), with a
// warning if others can enter it; the files that matter are 0600 anyway.
func ensureStateDir(dir string, log *slog.Logger) error {
	if err := os.MkdirAll(dir, stateDirPerm); err != nil {
		return fmt.Errorf("create state dir: %w", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("state dir: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("state dir %s is not a directory", dir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		log.Warn("state dir is accessible to other users; chmod 700 it", "state_dir", dir, "mode", fmt.Sprintf("%04o", fi.Mode().Perm()))
	}
	return nil
}
