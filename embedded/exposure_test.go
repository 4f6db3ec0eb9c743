package embedded

import (
	"context"
	"errors"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestIsLoopbackHost(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for host, want := range map[string]bool{
		"127.0.0.1":   true,
		"127.0.0.2":   true,
		"::1":         true,
		"localhost":   true,
		"":            false, // every interface
		"0.0.0.0":     false,
		"::":          false,
		"192.0.2.10":  false,
		"2001:db8::1": false,
	} {
		got, err := isLoopbackHost(ctx, host)
		if err != nil || got != want {
			t.Errorf("isLoopbackHost(%q) = %v, %v; want %v", host, got, err, want)
		}
	}
}

// A listen address other machines can reach is refused without TLS or
// WithInsecureRemote, before the state dir is even created.
func TestExposedListenRefused(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		dir := filepath.Join(t.TempDir(), "state")
		s, err := Start(WithStateDir(dir), WithListen(addr), WithLogger(testLogger()))
		if err == nil {
			shutdown(t, s)
			t.Fatalf("Start(%q) succeeded without TLS or WithInsecureRemote", addr)
		}
		var ele *ExposedListenError
		if !errors.As(err, &ele) || ele.Addr != addr {
			t.Fatalf("Start(%q): err = %T %v, want *ExposedListenError", addr, err, err)
		}
		if msg := err.Error(); !strings.Contains(msg, "refusing to listen on "+addr+" without TLS") || !strings.Contains(msg, "every interface") {
			t.Errorf("message %q", msg)
		}
		sug := suggestion(err)
		for _, want := range []string{"--listen 127.0.0.1:4228", "--tls-cert FILE --tls-key FILE", "--insecure-remote"} {
			if !strings.Contains(sug, want) {
				t.Errorf("suggestion %q lacks %q", sug, want)
			}
		}
		assertNoFile(t, dir)
	}
}

// A name that resolves to loopback is loopback.
func TestLocalhostIsLoopback(t *testing.T) {
	s := startTest(t, t.TempDir(), WithListen("localhost:0"))
	info := s.Info()
	if !info.Loopback || info.InsecureRemote || info.AllInterfaces() || !strings.HasPrefix(info.URL, "nats://127.0.0.1:") {
		t.Errorf("info = %+v", info)
	}
}

// WithInsecureRemote listens on every interface in plaintext and says so;
// local clients still find the daemon through a loopback URL.
func TestInsecureRemoteListens(t *testing.T) {
	dir := t.TempDir()
	s := startTest(t, dir, WithListen("0.0.0.0:0"), WithInsecureRemote(true))
	info := s.Info()

	host, port, err := net.SplitHostPort(info.Listen)
	if err != nil || port == "0" {
		t.Fatalf("Listen = %q, want the bound host:port", info.Listen)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() || !info.AllInterfaces() {
		t.Errorf("Listen = %q, want an unspecified address (every interface)", info.Listen)
	}
	if info.URL != "nats://127.0.0.1:"+port {
		t.Errorf("URL = %q, want nats://127.0.0.1:%s", info.URL, port)
	}
	if info.Loopback || !info.InsecureRemote || info.TLS() {
		t.Errorf("info = %+v, want not loopback, insecure remote, no TLS", info)
	}
	disc, err := Discover(dir)
	if err != nil || disc != info {
		t.Errorf("daemon.json = %+v, %v; want %+v", disc, err, info)
	}
	nc, _, err := Connect(dir)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer nc.Close()
	if u, _ := url.Parse(nc.ConnectedUrl()); u == nil || u.Port() != port {
		t.Errorf("connected to %q", nc.ConnectedUrl())
	}
}
