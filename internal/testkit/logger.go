package testkit

import (
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// Logger is a logger whose records go to t's log, from level up: what a daemon part logs shows
// beside the test that made it say so.
func Logger(t testing.TB, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(&testLog{t: t}, &slog.HandlerOptions{Level: level}))
}

// testLog writes each record to a test's log, one at a time.
type testLog struct {
	mu sync.Mutex
	t  testing.TB
}

func (w *testLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
