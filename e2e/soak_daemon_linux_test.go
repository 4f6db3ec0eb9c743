package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// soakHistoryMB is the soak daemon's event history: small, so that the stream reaches its
// bound during the warm-up and its bytes are judged flat like every other resource.
const soakHistoryMB = "1"

// soakDaemon is `axbus serve` on the session's desktop, as a process of its own, so that the
// run can kill it (SIGKILL) and start it again on the same state dir and port.
type soakDaemon struct {
	sess *headless.Session
	dir  string
	addr string
	cmd  *exec.Cmd
	log  *os.File
	done chan struct{}
}

func startSoakDaemon(t *testing.T, sess *headless.Session) *soakDaemon {
	d := &soakDaemon{sess: sess, dir: t.TempDir(), addr: "127.0.0.1:" + testdaemon.FreePort(t)}
	var err error
	if d.log, err = os.Create(filepath.Join(t.TempDir(), "daemon.log")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.kill(syscall.SIGTERM)
		_ = d.log.Close()
		if t.Failed() {
			if b, err := os.ReadFile(d.log.Name()); err == nil {
				t.Logf("the soak daemon's log (its last 8 KiB):\n%s", b[max(0, len(b)-8<<10):])
			}
		}
	})
	d.start(t)
	return d
}

// start starts the process and waits until its service answers.
func (d *soakDaemon) start(t *testing.T) {
	d.cmd = exec.Command(axbus, "serve", "--backend", "atspi", "--state-dir", d.dir, "--listen", d.addr,
		"--host", "soak", "--history-mb", soakHistoryMB, "--log-level", "warn")
	d.cmd.Env = d.sess.Env()
	d.cmd.Stdout, d.cmd.Stderr = d.log, d.log
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { _ = cmd.Wait(); close(done) }(d.cmd, d.done)
	var lastErr error
	if !testkit.Within(60*time.Second, func() bool {
		nc, _, err := embedded.Connect(d.dir)
		if err != nil {
			lastErr = err
			return false
		}
		defer nc.Close()
		c, err := client.New(context.Background(), nc, client.WithHost("soak"))
		if err == nil {
			_, err = c.Status(context.Background())
		}
		lastErr = err
		return err == nil
	}) {
		t.Fatalf("the soak daemon did not answer within 60 s: %v", lastErr)
	}
}

// kill ends the process with sig and waits for it.
func (d *soakDaemon) kill(sig syscall.Signal) {
	if d.cmd == nil || d.cmd.Process == nil {
		return
	}
	_ = d.cmd.Process.Signal(sig)
	select {
	case <-d.done:
	case <-time.After(30 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.done
	}
}

// soakIdentity is one client identity of the soak, connected as itself; its connection
// reconnects (for minutes) while the daemon is restarted.
type soakIdentity struct {
	name, role string
	nc         *nats.Conn
	client     *client.Client
}

// reconnecting are the options of every soak connection: it outlives a daemon restart.
func reconnecting(name string) []nats.Option {
	return []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {})}
}

// owner is the state dir's own identity (admin).
func (d *soakDaemon) owner(t *testing.T) *soakIdentity {
	nc, _, err := embedded.Connect(d.dir, reconnecting("owner")...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return &soakIdentity{name: "owner", role: api.RoleAdmin, nc: nc, client: soakClient(t, nc)}
}

// identity adds an identity of role through the owner's creds endpoint and connects as it.
func (d *soakDaemon) identity(t *testing.T, owner *soakIdentity, name, role string) *soakIdentity {
	seed, pub := testdaemon.NewNkey(t, name)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := owner.client.Creds(ctx, api.CredsRequest{Op: "add", Name: name, Role: role, Nkey: pub}); err != nil {
		t.Fatal(err)
	}
	opt, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect("nats://"+d.addr, append(reconnecting(name), opt)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return &soakIdentity{name: name, role: role, nc: nc, client: soakClient(t, nc)}
}

func soakClient(t *testing.T, nc *nats.Conn) *client.Client {
	c, err := client.New(context.Background(), nc, client.WithHost("soak"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// waitApps waits until the daemon lists every one of pids.
func (s *soakRun) waitApps(t *testing.T, pids []int) {
	testkit.Eventually(t, 30*time.Second, "the daemon listing the desktop's apps", func() bool {
		apps, err := s.owner.client.Apps(context.Background())
		if err != nil {
			return false
		}
		seen := map[int]bool{}
		for _, a := range apps {
			seen[a.PID] = true
		}
		for _, p := range pids {
			if !seen[p] {
				return false
			}
		}
		return true
	})
}

// warnings is what the daemon logged at WARN and ERROR over the run (both its processes): how
// many of each message, and the first line of each.
func (d *soakDaemon) warnings() string {
	b, err := os.ReadFile(d.log.Name())
	if err != nil {
		return err.Error()
	}
	counts, first := map[string]int{}, map[string]string{}
	var order []string
	for line := range strings.Lines(string(b)) {
		if !strings.Contains(line, "level=WARN") && !strings.Contains(line, "level=ERROR") {
			continue
		}
		msg := line
		if i := strings.Index(line, " msg="); i >= 0 {
			msg = line[i+5:]
			if j := strings.Index(msg, `" `); strings.HasPrefix(msg, `"`) && j > 0 {
				msg = msg[:j+1]
			} else if j := strings.IndexByte(msg, ' '); j > 0 {
				msg = msg[:j]
			}
		}
		if counts[msg]++; counts[msg] == 1 {
			order = append(order, msg)
			first[msg] = strings.TrimSpace(line)
		}
	}
	if len(order) == 0 {
		return "none"
	}
	var out strings.Builder
	for _, msg := range order {
		fmt.Fprintf(&out, "- %d× %s\n", counts[msg], model.Excerpt(first[msg]))
	}
	return out.String()
}
