//go:build linux

package headless

import (
	"bytes"
	"encoding/binary"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/axbus/axbus/internal/xauth"
)

// The session's X server lets in only the clients that present the cookie of the session's Xauthority (issue
// 11: without it, any local user could connect and inject input into the fixture apps), and the session gives
// that cookie to its own programs.
func TestXAuthRefusesClientsWithoutTheCookie(t *testing.T) {
	s := startSession(t)
	if fi, err := os.Stat(s.XAuthority); err != nil || fi.Mode().Perm() != 0o600 || filepath.Dir(s.XAuthority) != s.Dir {
		t.Fatalf("XAuthority %q: %v %v, want a 0600 file in %s", s.XAuthority, fi.Mode(), err, s.Dir)
	}
	if !slices.Contains(s.Env(), "XAUTHORITY="+s.XAuthority) {
		t.Errorf("Env has no XAUTHORITY=%s", s.XAuthority)
	}
	if env, err := os.ReadFile(filepath.Join(s.Dir, "session.env")); err != nil ||
		!strings.Contains(string(env), "export XAUTHORITY='"+s.XAuthority+"'") {
		t.Errorf("session.env does not export XAUTHORITY: %q %v", env, err)
	}
	cookie, err := xauth.Cookie(s.XAuthority, strings.TrimPrefix(s.Display, ":"))
	if err != nil {
		t.Fatal(err)
	}

	// The connection setup itself, as any client sends it.
	wrong := bytes.Repeat([]byte{0x5a}, xauth.CookieLen)
	for _, tc := range []struct {
		what   string
		name   string
		data   []byte
		accept bool
	}{
		{"no cookie", "", nil, false},
		{"a wrong cookie", xauth.MagicCookie, wrong, false},
		{"the session's cookie", xauth.MagicCookie, cookie, true},
	} {
		accepted, reason := xSetup(t, s.Display, tc.name, tc.data)
		if accepted != tc.accept {
			t.Errorf("a client with %s: accepted %v (%q), want %v", tc.what, accepted, reason, tc.accept)
		}
	}

	// Xlib's clients: the X11 tools of the issue.
	if _, err := exec.LookPath("xdpyinfo"); err != nil {
		t.Fatalf("xdpyinfo is missing (make deps installs the Debian package x11-utils): %v", err)
	}
	without := exec.Command("xdpyinfo")
	without.Env = append(slices.DeleteFunc(s.Env(), func(kv string) bool { return strings.HasPrefix(kv, "XAUTHORITY=") }),
		"XAUTHORITY=/dev/null")
	if out, err := without.CombinedOutput(); err == nil {
		t.Errorf("xdpyinfo without the cookie connected:\n%s", clip(out, 300))
	}
	with := exec.Command("xdpyinfo")
	with.Env = s.Env()
	if out, err := with.CombinedOutput(); err != nil {
		t.Errorf("xdpyinfo with the session's environment: %v\n%s", err, clip(out, 300))
	}

	// xgb, as axbus's backend connects: with the session's file, and with a file of a wrong cookie.
	xgb.Logger = log.New(io.Discard, "", 0) // it reports the test process's missing ~/.Xauthority
	c, err := xauth.Dial(s.Display, s.XAuthority)
	if err != nil {
		t.Fatalf("Dial with the session's Xauthority: %v", err)
	}
	_, err = xproto.GetInputFocus(c).Reply()
	closeX(c)
	if err != nil {
		t.Errorf("a request over the authenticated connection: %v", err)
	}
	wrongFile := filepath.Join(t.TempDir(), "Xauthority")
	if err := xauth.Write(wrongFile, xauth.WildcardEntry(wrong)); err != nil {
		t.Fatal(err)
	}
	if c, err := xauth.Dial(s.Display, wrongFile); err == nil {
		closeX(c)
		t.Error("Dial with a wrong cookie connected")
	} else if !strings.Contains(err.Error(), "refused") {
		t.Errorf("Dial with a wrong cookie: %v, want a refusal", err)
	}
}

// xSetup sends an X11 connection setup request with the authorization name and data to display's socket and
// reports whether the server accepted it, and if not why.
func xSetup(t *testing.T, display, name string, data []byte) (accepted bool, reason string) {
	t.Helper()
	conn, err := net.DialTimeout("unix", "/tmp/.X11-unix/X"+strings.TrimPrefix(display, ":"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	pad := func(b []byte) []byte { return append(b, make([]byte, (4-len(b)%4)%4)...) }
	req := []byte{'l', 0, 11, 0, 0, 0, byte(len(name)), 0, byte(len(data)), 0, 0, 0}
	req = append(append(req, pad([]byte(name))...), pad(data)...)
	if _, err := conn.Write(req); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 8) // status (0 failed, 1 success, 2 authenticate), reason length, version, length/4
	if _, err := io.ReadFull(conn, head); err != nil {
		t.Fatalf("X setup reply: %v", err)
	}
	rest := make([]byte, 4*int(binary.LittleEndian.Uint16(head[6:])))
	if _, err := io.ReadFull(conn, rest); err != nil {
		t.Fatalf("X setup reply: %v", err)
	}
	if head[0] == 1 {
		return true, ""
	}
	return false, string(rest[:min(int(head[1]), len(rest))])
}

// closeX closes an xgb connection and waits until its goroutines end.
func closeX(c *xgb.Conn) {
	c.Close()
	for {
		if ev, err := c.WaitForEvent(); ev == nil && err == nil {
			return
		}
	}
}
