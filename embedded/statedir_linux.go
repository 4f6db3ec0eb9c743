package embedded

import (
	"fmt"
	"os"
	"path/filepath"
)

// DefaultStateDir returns $XDG_STATE_HOME/axbus, or ~/.local/state/axbus when
// XDG_STATE_HOME is unset (XDG Base Directory spec: relative values are
// ignored).
func DefaultStateDir() (string, error) {
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, appDirName), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("default state dir: %w", err)
	}
	return filepath.Join(home, ".local", "state", appDirName), nil
}
