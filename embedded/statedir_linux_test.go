package embedded

import (
	"path/filepath"
	"testing"
)

func TestDefaultStateDirLinux(t *testing.T) {
	t.Setenv("HOME", "/home/someone")

	t.Setenv("XDG_STATE_HOME", "/xdg/state")
	if got, err := DefaultStateDir(); err != nil || got != filepath.Join("/xdg/state", "axbus") {
		t.Errorf("with XDG_STATE_HOME: %q, %v", got, err)
	}
	for _, v := range []string{"", "relative/state"} {
		t.Setenv("XDG_STATE_HOME", v)
		if got, err := DefaultStateDir(); err != nil || got != filepath.Join("/home/someone", ".local", "state", "axbus") {
			t.Errorf("XDG_STATE_HOME=%q: %q, %v", v, got, err)
		}
	}
}
