package embedded

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeFileAtomic writes data to path through a temp file in the same
// directory and a rename, so that readers see the old file or the whole new
// one, never a torn one, and the file never exists with looser permissions.
func writeFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename durable; best effort, some filesystems refuse.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
