package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/schemas"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testDaemon is a real daemon (embedded NATS, JetStream, micro service) on the simulated demo
// desktop, in a private state dir, on a free port.
type testDaemon struct {
	*daemon.Daemon
	dir string
}

func startTestDaemon(t *testing.T) *testDaemon {
	t.Helper()
	return startSimDaemon(t, daemon.Config{Desktop: "demo"})
}

// startSimDaemon starts a daemon on the simulated desktop with cfg, in a fresh state dir on a
// free port, and stops it when the test ends.
func startSimDaemon(t *testing.T, cfg daemon.Config) *testDaemon {
	t.Helper()
	cfg.Backend = "sim"
	return runDaemon(t, cfg)
}

// runDaemon starts a daemon with cfg in a fresh state dir on a free port, host testhost, and
// stops it when the test ends (unless the test closed it already).
func runDaemon(t *testing.T, cfg daemon.Config) *testDaemon {
	t.Helper()
	dir := t.TempDir()
	cfg.StateDir, cfg.Listen, cfg.Host = dir, "127.0.0.1:0", "testhost"
	d, err := daemon.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Errorf("daemon close: %v", err)
		}
	})
	return &testDaemon{Daemon: d, dir: dir}
}

// cli runs one axbus command line in-process against the daemon and returns what it printed
// and its exit status. The state dir flag goes right after the command name.
func (d *testDaemon) cli(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	full := append([]string{args[0], "--state-dir", d.dir}, args[1:]...)
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code = run(ctx, full, &out, &errb)
	return out.String(), errb.String(), code
}

// mustMatch fails unless doc matches the named schema: replies keep the schemas true.
func mustMatch(t *testing.T, schema string, doc []byte) {
	t.Helper()
	if err := schemas.Validate(schema, bytes.TrimSpace(doc)); err != nil {
		t.Fatalf("%s: %v\n%s", schema, err, doc)
	}
}

func decode[T any](t *testing.T, doc string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("decode: %v\n%s", err, doc)
	}
	return v
}

// moduleRoot finds the directory of go.mod above the working directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// natsCLI finds the real nats CLI that `make tools` installs.
func natsCLI(t *testing.T) string {
	t.Helper()
	local := filepath.Join(moduleRoot(t), ".tools", "bin", "nats")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	p, err := exec.LookPath("nats")
	if err != nil {
		t.Fatal("the nats CLI is missing: run `make tools` (make test does it)")
	}
	return p
}

// natsRun runs the nats CLI against the daemon and returns its combined output.
func (d *testDaemon) natsRun(t *testing.T, ctx context.Context, args ...string) (string, error) {
	t.Helper()
	info := d.Server.Info()
	full := append([]string{"--server", info.URL, "--nkey", info.CredsFile}, args...)
	cmd := exec.CommandContext(ctx, natsCLI(t), full...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// buildAxbus builds the binary once per test run.
func buildAxbus(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "axbus")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func oneLine(t *testing.T, s string) string {
	t.Helper()
	s = strings.TrimRight(s, "\n")
	if strings.Contains(s, "\n") || s == "" {
		t.Fatalf("want exactly one line, got %q", s)
	}
	return s
}

// firstJSONLine sends the first line of r that is a JSON object (a CLI's output among its
// banner), or closes the channel when r ends without one.
func firstJSONLine(r io.Reader) <-chan string {
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "{") {
				line <- sc.Text()
				return
			}
		}
		close(line)
	}()
	return line
}

// connect is a connection of the daemon's own client key, closed with the test.
func (d *testDaemon) connect(t *testing.T) *nats.Conn {
	t.Helper()
	nc, _, err := embedded.Connect(d.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// busClient is a Client on nc.
func busClient(t *testing.T, nc *nats.Conn) *client.Client {
	t.Helper()
	c, err := client.New(context.Background(), nc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newNkey makes an nkey and writes its seed (0600) in a temp dir; it returns the seed file and
// the public key.
func newNkey(t *testing.T, name string) (seedFile, pub string) {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := kp.Seed()
	pub, _ = kp.PublicKey()
	seedFile = filepath.Join(t.TempDir(), name+".nk")
	if err := os.WriteFile(seedFile, append(seed, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	return seedFile, pub
}

// addIdentity adds an identity of role to the daemon's server and returns its nkey seed file.
func (d *testDaemon) addIdentity(t *testing.T, name, role string) string {
	t.Helper()
	seedFile, pub := newNkey(t, name)
	if err := d.Server.AddUser(embedded.User{Name: name, Role: role, Nkey: pub}); err != nil {
		t.Fatal(err)
	}
	return seedFile
}

// subscribed is a synchronous subscription the server has (flushed): what is published next
// reaches it.
func subscribed(t *testing.T, nc *nats.Conn, subject string) *nats.Subscription {
	t.Helper()
	sub, err := nc.SubscribeSync(subject)
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return sub
}
