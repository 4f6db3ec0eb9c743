package embedded

import (
	"fmt"
	"os"
	"path/filepath"
)

// DefaultStateDir returns ~/Library/Application Support/axbus.
func DefaultStateDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("default state dir: %w", err)
	}
	return filepath.Join(home, "Library", "Application Support", appDirName), nil
}
