package sim

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FixturePath finds fixtures/desktops/<name>.json of this module from the working directory or
// any directory above it up to the module root (the one with go.mod), so tests in any package
// and `axbus serve` run from the repository find the same files. name may end in ".json".
func FixturePath(name string) (string, error) {
	if !strings.HasSuffix(name, ".json") {
		name += ".json"
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("sim: fixture %s: %w", name, err)
	}
	for {
		p := filepath.Join(dir, "fixtures", "desktops", name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return "", fmt.Errorf("sim: no fixture %s in %s", name, filepath.Join(dir, "fixtures", "desktops"))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("sim: no fixture %s: no fixtures/desktops above the working directory", name)
		}
		dir = parent
	}
}
