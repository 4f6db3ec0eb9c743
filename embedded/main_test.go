package embedded

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testLogger discards unless AXBUS_TEST_LOG is set, so that server
// goroutines never log through a finished test.
func testLogger() *slog.Logger {
	if os.Getenv("AXBUS_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// startTest starts a server on dir with a free port and shuts it down at
// the end of the test.
func startTest(t *testing.T, dir string, opts ...Option) *Server {
	t.Helper()
	all := append([]Option{WithStateDir(dir), WithListen("127.0.0.1:0"), WithLogger(testLogger())}, opts...)
	s, err := Start(all...)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { shutdown(t, s) })
	return s
}

func shutdown(t *testing.T, s *Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func assertNoFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("%s: want no file, stat err = %v", filepath.Base(path), err)
	}
}
