package atspi

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain closes the shared headless session (Linux) and then proves that nothing is left
// running: watchers, workers, timers and the X and D-Bus connections end with Close.
func TestMain(m *testing.M) {
	code := m.Run()
	closeShared()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}
