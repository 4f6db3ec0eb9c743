package embedded

import (
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// 3. A busy port gives *PortBusyError quickly and leaves nothing behind,
// both from the pre-check and from the server's own listen error.
func TestPortBusy(t *testing.T) {
	for _, precheck := range []bool{true, false} {
		name := "precheck"
		if !precheck {
			name = "server-listen"
		}
		t.Run(name, func(t *testing.T) {
			old := precheckPort
			precheckPort = precheck
			defer func() { precheckPort = old }()

			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			dir := t.TempDir()

			start := time.Now()
			s, err := Start(WithStateDir(dir), WithListen(ln.Addr().String()), WithLogger(testLogger()))
			if err == nil {
				shutdown(t, s)
				t.Fatal("Start on a busy port succeeded")
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
			var pbe *PortBusyError
			if !errors.As(err, &pbe) || pbe.Addr != ln.Addr().String() {
				t.Fatalf("err = %T %v, want *PortBusyError for %s", err, err, ln.Addr())
			}
			if !strings.Contains(suggestion(err), "lsof") {
				t.Errorf("suggestion %q", suggestion(err))
			}

			goleak.VerifyNone(t)
			assertNoFile(t, filepath.Join(dir, "daemon.json"))
			if held, err := lockHeld(dir); held || err != nil {
				t.Errorf("lock held = %v, %v", held, err)
			}
			startTest(t, dir) // lock released: a free port works
		})
	}
}

func TestBadListen(t *testing.T) {
	for _, addr := range []string{"nohostport", "127.0.0.1:notaport", "127.0.0.1:70000"} {
		if s, err := Start(WithStateDir(t.TempDir()), WithListen(addr)); err == nil {
			shutdown(t, s)
			t.Errorf("Start(%q) succeeded", addr)
		}
	}
}
