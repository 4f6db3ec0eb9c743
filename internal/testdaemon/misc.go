package testdaemon

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
	"github.com/creack/pty"
)

// StartHeadless starts a headless desktop, closed when the test ends.
func StartHeadless(t *testing.T, ctx context.Context) *headless.Session {
	t.Helper()
	if err := headless.Available(); err != nil {
		t.Fatalf("the headless desktop needs: %v (make test installs it)", err)
	}
	sess, err := headless.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sess.Close(); err != nil {
			t.Errorf("session close: %v", err)
		}
	})
	return sess
}

// SessionConfig is a daemon on the AT-SPI backend of the headless desktop s; what it launches
// ends with the session.
func SessionConfig(s *headless.Session) daemon.Config {
	return daemon.Config{Backend: "atspi", SessionBus: s.SessionBus, A11yBus: s.A11yBus, Display: s.Display,
		XAuthority: s.XAuthority, LaunchEnv: s.Env()}
}

// FreePort is a TCP port free on every interface just now.
func FreePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
}

// OpenTTY is a pseudo-terminal: its slave end is a command's stdout, its master end the screen,
// read into lines (the terminal's CR LF made LF).
func OpenTTY(t *testing.T) (slave *os.File, lines <-chan string) {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatalf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() {
		slave.Close()
		master.Close() // ends the reader
	})
	out := make(chan string, 4096)
	go func() {
		defer close(out)
		r := bufio.NewReader(master)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return
			}
			out <- strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
		}
	}()
	return slave, out
}

// ttyEnd is written to the terminal after a command ended, so that its reader knows it has
// everything the command printed (a closed terminal's last bytes may be lost on some systems).
const ttyEnd = "--- end of the command's output ---"

// Runner runs one axbus command line and returns its exit status: the CLI in-process, or the
// built binary.
type Runner func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// OnTTY runs one command line against the daemon with a terminal as its stdout and returns what
// the terminal showed, a line each.
func (d *Daemon) OnTTY(t *testing.T, run Runner, args ...string) []string {
	t.Helper()
	slave, lines := OpenTTY(t)
	full := append([]string{args[0], "--state-dir", d.Dir}, args[1:]...)
	var errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if code := run(ctx, full, slave, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	fmt.Fprintln(slave, ttyEnd)
	var got []string
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok || l == ttyEnd {
				return got
			}
			got = append(got, l)
		case <-timeout:
			t.Fatalf("%v: the terminal showed no end of the output within 10 s; so far %q", args, got)
		}
	}
}

// Capture runs one command line with run, as a shell would, within 30 s, and returns what it
// printed and its exit status.
func Capture(run Runner, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code = run(ctx, args, &out, &errb)
	return out.String(), errb.String(), code
}
