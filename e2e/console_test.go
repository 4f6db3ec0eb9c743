package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/console"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testkit"
)

// Without its token nothing of the console is served, a token is good once, and the server's
// WebSocket listener takes the console's identity alone, which the client port refuses.
func TestConsoleRefusals(t *testing.T) {
	d := startSimDaemon(t, daemon.Config{Console: "127.0.0.1:0"})
	origin := d.Console.Origin()
	plain := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/", "/console.js", "/nats.js", "/session", "/?token=0123456789abcdef0123456789abcdef"} {
		if code, _ := get(t, plain, origin+path); code != http.StatusForbidden {
			t.Errorf("GET %s without a session: %d, want 403", path, code)
		}
	}
	url := d.Console.URL(api.RoleMonitor)
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	if code, body := get(t, browser, url); code != http.StatusOK || !strings.Contains(body, "axbus console") {
		t.Fatalf("GET the console's URL: %d %.200s", code, body)
	}
	if code, _ := get(t, &http.Client{}, url); code != http.StatusForbidden {
		t.Errorf("the token a second time: %d, want 403", code)
	}
	code, body := get(t, browser, origin+"/session")
	var s console.Session
	if code != http.StatusOK || json.Unmarshal([]byte(body), &s) != nil || s.Seed == "" || s.Role != api.RoleMonitor {
		t.Fatalf("the session: %d %.100s", code, body)
	}
	if code, _ := get(t, plain, origin+"/session"); code != http.StatusForbidden {
		t.Errorf("the session without its cookie: %d, want 403", code)
	}

	refused := func(what, url string, opts ...nats.Option) {
		t.Helper()
		nc, err := nats.Connect(url, append(opts, nats.NoReconnect(), nats.Timeout(5*time.Second))...)
		if err == nil {
			nc.Close()
			t.Errorf("%s: connected", what)
			return
		}
		t.Logf("%s: %v", what, err)
	}
	seed := filepath.Join(t.TempDir(), "console.nk")
	if err := os.WriteFile(seed, []byte(s.Seed), 0o600); err != nil {
		t.Fatal(err)
	}
	consoleKey, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	ownerKey, err := nats.NkeyOptionFromSeed(d.Server.CredsFile())
	if err != nil {
		t.Fatal(err)
	}
	refused("the WebSocket listener without credentials", s.WebSocket)
	refused("the WebSocket listener with the owner's key", s.WebSocket, ownerKey)
	refused("the client port with the console's key", d.Server.ClientURL(), consoleKey)
	// A page of another origin (any site the user visits) may not open the listener at all.
	for origin, want := range map[string]int{"http://evil.example": http.StatusForbidden, origin: http.StatusSwitchingProtocols} {
		req, _ := http.NewRequest("GET", strings.Replace(s.WebSocket, "ws://", "http://", 1), nil)
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Upgrade", "websocket")
		req.Header.Set("Sec-WebSocket-Version", "13")
		req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
		req.Header.Set("Origin", origin)
		r, err := plain.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != want {
			t.Errorf("a WebSocket upgrade from %s: %d, want %d", origin, r.StatusCode, want)
		}
	}
	nc, err := nats.Connect(s.WebSocket, consoleKey, nats.NoReconnect())
	if err != nil {
		t.Fatalf("the console's key over the WebSocket listener: %v", err)
	}
	defer nc.Close()
	if _, err := nc.Request(d.Subjects.Endpoint("apps"), []byte("{}"), 5*time.Second); err != nil {
		t.Fatalf("the console's identity asks for apps: %v", err)
	}
	testkit.Eventually(t, 5*time.Second, "the console among the agents", func() bool {
		r, err := nc.Request(d.Subjects.Endpoint("agents"), []byte("{}"), 5*time.Second)
		return err == nil && strings.Contains(string(r.Data), `"name":"console"`)
	})
}

func get(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	r, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	body, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(body)
}
