package embedded

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/internal/testkit"

	"github.com/nats-io/nats.go"
	"go.uber.org/goleak"
)

// 1. TCP clients with the creds file work; clients without are refused.
func TestConnectWithCreds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s := startTest(t, dir)

	if !strings.HasPrefix(s.ClientURL(), "nats://127.0.0.1:") || strings.HasSuffix(s.ClientURL(), ":0") {
		t.Fatalf("ClientURL = %q, want the bound loopback port", s.ClientURL())
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode %04o, want 0700", fi.Mode().Perm())
	}

	nc, info, err := Connect(dir)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer nc.Close()
	if info != s.Info() {
		t.Errorf("Discover info = %+v, want %+v", info, s.Info())
	}
	if info.PID != os.Getpid() || info.CredsFile != filepath.Join(dir, "client.nk") {
		t.Errorf("info = %+v", info)
	}
	if got := nc.MaxPayload(); got != int64(DefaultMaxPayload) {
		t.Errorf("MaxPayload = %d, want %d", got, DefaultMaxPayload)
	}

	// TCP subscriber, publishes from TCP and from the in-process Conn.
	sub := testkit.Subscribed(t, nc, "t.>")
	if err := nc.Publish("t.tcp", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := s.Conn().Publish("t.inproc", []byte("b")); err != nil {
		t.Fatal(err)
	}
	// Two publishers: no order between them.
	got := map[string]bool{}
	for range 2 {
		m, err := sub.NextMsg(2 * time.Second)
		if err != nil {
			t.Fatalf("waiting for messages (have %v): %v", got, err)
		}
		got[m.Subject] = true
	}
	if !got["t.tcp"] || !got["t.inproc"] {
		t.Errorf("got %v, want t.tcp and t.inproc", got)
	}

	// Request from TCP to a responder on the in-process Conn.
	rsub, err := s.Conn().Subscribe("svc.echo", func(m *nats.Msg) { _ = m.Respond(m.Data) })
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rsub.Unsubscribe() }()
	if err := s.Conn().Flush(); err != nil {
		t.Fatal(err)
	}
	if m, err := nc.Request("svc.echo", []byte("ping"), 2*time.Second); err != nil || string(m.Data) != "ping" {
		t.Fatalf("request: %v %v", m, err)
	}

	// No credentials: refused quickly with an authorization error.
	start := time.Now()
	bad, err := nats.Connect(s.ClientURL(), nats.Timeout(2*time.Second), nats.NoReconnect())
	if err == nil {
		bad.Close()
		t.Fatal("connect without creds succeeded")
	}
	if !errors.Is(err, nats.ErrAuthorization) && !strings.Contains(err.Error(), "Authorization Violation") {
		t.Errorf("err = %v, want Authorization Violation", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusal took %v", d)
	}
}

// 2. A second Start on a locked state dir fails fast and damages nothing.
func TestAlreadyRunning(t *testing.T) {
	dir := t.TempDir()
	first := startTest(t, dir, WithEventStream("EVT", "ax.h1.evt.>"))

	infoBefore := readFile(t, filepath.Join(dir, "daemon.json"))
	credsBefore := readFile(t, filepath.Join(dir, "client.nk"))
	storeBefore := treeSnapshot(t, filepath.Join(dir, "jetstream"))

	start := time.Now()
	second, err := Start(WithStateDir(dir), WithListen("127.0.0.1:0"), WithEventStream("EVT", "other.>"))
	if err == nil {
		shutdown(t, second)
		t.Fatal("second Start succeeded")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("second Start took %v", d)
	}
	var are *AlreadyRunningError
	if !errors.As(err, &are) {
		t.Fatalf("err = %T %v, want *AlreadyRunningError", err, err)
	}
	if are.URL != first.ClientURL() || are.PID != os.Getpid() || are.StateDir != first.StateDir() {
		t.Errorf("err = %+v, want URL %s pid %d", are, first.ClientURL(), os.Getpid())
	}
	if !strings.HasPrefix(err.Error(), "already running at nats://") {
		t.Errorf("message %q", err.Error())
	}
	if suggestion(err) == "" {
		t.Error("no suggestion")
	}

	if got := readFile(t, filepath.Join(dir, "daemon.json")); string(got) != string(infoBefore) {
		t.Error("daemon.json changed")
	}
	if got := readFile(t, filepath.Join(dir, "client.nk")); string(got) != string(credsBefore) {
		t.Error("client.nk changed")
	}
	if got := treeSnapshot(t, filepath.Join(dir, "jetstream")); got != storeBefore {
		t.Errorf("jetstream store changed:\n%s\n---\n%s", storeBefore, got)
	}

	// The first server still serves, its stream still has its subjects.
	nc, _, err := Connect(dir)
	if err != nil {
		t.Fatalf("Connect after failed second Start: %v", err)
	}
	defer nc.Close()
	if err := nc.Publish("ax.h1.evt.a.b", nil); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	st, err := first.JetStream().Stream(ctx, "EVT")
	if err != nil {
		t.Fatal(err)
	}
	if subj := st.CachedInfo().Config.Subjects; len(subj) != 1 || subj[0] != "ax.h1.evt.>" {
		t.Errorf("stream subjects = %v", subj)
	}
}

// treeSnapshot lists names, sizes and mtimes below root.
func treeSnapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		size := fi.Size()
		if fi.IsDir() {
			size = 0
		}
		fmt.Fprintf(&b, "%s %v %d %v\n", rel, fi.Mode(), size, fi.ModTime())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// 7. Shutdown removes daemon.json, leaves no goroutines; Discover then
// (and with a stale daemon.json) says not running.
func TestShutdownAndDiscover(t *testing.T) {
	dir := t.TempDir()
	s, err := Start(WithStateDir(dir), WithListen("127.0.0.1:0"), WithEventStream("EVT", "e.>"), WithKeyValue("leases"))
	if err != nil {
		t.Fatal(err)
	}
	nc, _, err := Connect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nc.Subscribe("x", func(*nats.Msg) {}); err != nil {
		t.Fatal(err)
	}
	nc.Close()
	if _, err := s.Conn().Subscribe("y", func(*nats.Msg) {}); err != nil {
		t.Fatal(err)
	}

	shutdown(t, s)
	if err := s.Shutdown(context.Background()); err != nil {
		t.Errorf("second Shutdown: %v", err)
	}
	assertNoFile(t, filepath.Join(dir, "daemon.json"))
	goleak.VerifyNone(t)

	_, err = Discover(dir)
	if !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Discover after shutdown: %v, want ErrNotRunning", err)
	}
	var nre *NotRunningError
	if !errors.As(err, &nre) || nre.StateDir != dir {
		t.Errorf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "axbus serve") || !strings.Contains(suggestion(err), "make run") {
		t.Errorf("message %q, suggestion %q", err.Error(), suggestion(err))
	}
	if _, _, err := Connect(dir); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Connect: %v, want ErrNotRunning", err)
	}

	// A daemon that died leaves daemon.json behind; the lock says it is stale.
	stale := Info{URL: "nats://127.0.0.1:1", PID: 999999, CredsFile: filepath.Join(dir, "client.nk"), Started: time.Now(), StateDir: dir}
	if err := writeInfo(dir, stale); err != nil {
		t.Fatal(err)
	}
	if _, err := Discover(dir); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Discover with stale daemon.json: %v, want ErrNotRunning", err)
	}
	// Never started here at all.
	if _, err := Discover(t.TempDir()); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Discover on empty dir: %v, want ErrNotRunning", err)
	}

	// A new daemon replaces the stale file.
	s2 := startTest(t, dir)
	info, err := Discover(dir)
	if err != nil || info.URL != s2.ClientURL() {
		t.Errorf("Discover = %+v, %v; want URL %s", info, err, s2.ClientURL())
	}
}

// suggestion is what the CLI says an error of this package suggests.
func suggestion(err error) string { return model.AsError(err).Suggestion }
