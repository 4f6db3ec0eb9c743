package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer/sim"
)

// pollStats is the poller's view of app pid; ok is false when it does not know the app.
func pollStats(d *daemon.Daemon, pid int) (s model.AppPollStats, ok bool) {
	for _, s := range d.Poller.Stats() {
		if s.App.PID == pid {
			return s, true
		}
	}
	return s, false
}

// pollTicks waits until d's poller has run n more ticks.
func pollTicks(t *testing.T, d *daemon.Daemon, n int64) {
	t.Helper()
	from := d.Poller.Ticks()
	testkit.Eventually(t, 10*time.Second, fmt.Sprintf("%d poller ticks", n), func() bool { return d.Poller.Ticks()-from >= n })
}

// TestSnapPolledOnlyWhileSubscribed: a daemon with no subscriber reads nothing of the 4,000-element
// window however many cycles pass; a real subscription on the app's subject gets a reset of the
// whole window first; a wildcard subscription joining counts too and gets a reset from memory;
// once both are gone reads stop and the copy is dropped, and status says why nothing is polled.
func TestSnapPolledOnlyWhileSubscribed(t *testing.T) {
	const ledger = 601
	td := startSimDaemon(t, daemon.Config{Desktop: "large", SnapInterval: 10 * time.Millisecond, SnapResync: 3})
	d := td.Daemon.Daemon
	nc := td.Connect(t)
	client := testdaemon.Client(t, nc)

	testkit.Eventually(t, 5*time.Second, "the poller knows Ledger", func() bool { _, ok := pollStats(d, ledger); return ok })
	pollTicks(t, d, 30) // resyncs due every 3: none may run
	if s, _ := pollStats(d, ledger); s.Polling || s.Reads != 0 || s.FullReads != 0 || s.Elements != 0 {
		t.Fatalf("with no subscriber: %+v", s)
	}
	st, err := client.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	testdaemon.MustMatch(t, "status.reply", mustMarshal(t, st))
	if len(st.Snaps.Polled) != 0 || !strings.HasPrefix(st.Snaps.Idle, "no subscriber") {
		t.Errorf("status with no subscriber: polled %+v, idle %q", st.Snaps.Polled, st.Snaps.Idle)
	}

	exact := testkit.Subscribed(t, nc, d.Subjects.Snap("Ledger"))
	if env := nextSnap(t, exact); env.Kind != model.DiffReset || len(env.Added) != 4000 || env.Elements != 4000 {
		t.Fatalf("first diff of a new subscriber: %s with %d added", env.Kind, len(env.Added))
	}
	wild := testkit.Subscribed(t, nc, d.Subjects.AllSnaps())
	if env := nextSnap(t, wild); env.Kind != model.DiffReset || len(env.Added) != 4000 {
		t.Fatalf("first diff of a wildcard subscriber: %s with %d added", env.Kind, len(env.Added))
	}
	if env := nextSnap(t, exact); env.Kind != model.DiffReset { // the same reset reaches both
		t.Fatalf("the first subscriber got %s", env.Kind)
	}
	if s, _ := pollStats(d, ledger); !s.Polling || s.Listeners != 2 || s.Elements != 4000 {
		t.Errorf("with two subscribers: %+v", s)
	}
	if st, err = client.Status(context.Background()); err != nil || len(st.Snaps.Polled) != 1 || st.Snaps.Polled[0].App.PID != ledger || st.Snaps.Idle != "" {
		t.Errorf("status with subscribers: %+v (%v)", st.Snaps, err)
	}
	testdaemon.MustMatch(t, "status.reply", mustMarshal(t, st))

	_ = exact.Unsubscribe()
	_ = wild.Unsubscribe()
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 5*time.Second, "the copy dropped once nobody subscribes", func() bool {
		s, _ := pollStats(d, ledger)
		return !s.Polling && s.Elements == 0 && s.Window == nil
	})
	before, _ := pollStats(d, ledger)
	if err := d.Backend.(*sim.Desktop).SetTitle(ledger, "import", "Import CSV"); err != nil {
		t.Fatal(err)
	}
	pollTicks(t, d, 10) // with a change to find: none may read it
	if s, _ := pollStats(d, ledger); s.Reads != before.Reads || s.Pending != 0 {
		t.Errorf("after the last subscriber left: %d reads more, %d pending", s.Reads-before.Reads, s.Pending)
	}
}

// nextSnap waits for the next diff on sub.
func nextSnap(t *testing.T, sub *nats.Subscription) api.SnapEnvelope {
	t.Helper()
	msg, err := sub.NextMsg(5 * time.Second)
	if err != nil {
		t.Fatalf("no diff on %s: %v", sub.Subject, err)
	}
	testdaemon.MustMatch(t, "snap", msg.Data)
	var env api.SnapEnvelope
	if err := json.Unmarshal(msg.Data, &env); err != nil {
		t.Fatal(err)
	}
	return env
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSnapNatsSub: `nats sub` on an app's snap subject, the real CLI, is what makes the daemon
// poll that app: the first message it prints is a reset holding the whole window, status lists
// the app as polled for one listener, and once the CLI is gone the daemon stops and says why.
func TestSnapNatsSub(t *testing.T) {
	const notes = 501
	d := startTestDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if s, ok := pollStats(d.Daemon.Daemon, notes); ok && (s.Polling || s.Reads != 0) {
		t.Fatalf("polling before any subscriber: %+v", s)
	}
	info := d.Server.Info()
	sub := exec.CommandContext(ctx, testdaemon.NatsCLI(t), "--server", info.URL, "--nkey", info.CredsFile, "sub", "--raw", d.Subjects.Snap("Notes"))
	sub.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+t.TempDir())
	stdout, err := sub.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Process.Kill(); _ = sub.Wait() }()
	lines := testdaemon.FirstJSONLine(stdout)
	var env api.SnapEnvelope
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("nats sub ended without a diff")
		}
		testdaemon.MustMatch(t, "snap", []byte(l))
		env = testdaemon.Decode[api.SnapEnvelope](t, l)
	case <-time.After(10 * time.Second):
		t.Fatal("nats sub saw no diff in 10 s")
	}
	if env.Kind != model.DiffReset || env.App.PID != notes || len(env.Added) != env.Elements || env.Elements < 100 {
		t.Fatalf("first diff %s of %s: %d added of %d elements; want a reset of the whole window", env.Kind, env.App.Name, len(env.Added), env.Elements)
	}
	out, _, code := d.cli(t, "status")
	st := testdaemon.Decode[api.StatusReply](t, out)
	if code != 0 || len(st.Snaps.Polled) != 1 || st.Snaps.Polled[0].App.PID != notes || st.Snaps.Polled[0].Listeners != 1 {
		t.Fatalf("status while nats sub listens (exit %d): %s", code, out)
	}

	_ = sub.Process.Kill()
	_ = sub.Wait()
	testkit.Eventually(t, 10*time.Second, "polling stops once nats sub is gone", func() bool {
		s, _ := pollStats(d.Daemon.Daemon, notes)
		return !s.Polling && s.Elements == 0
	})
	out, _, _ = d.cli(t, "status")
	if st := testdaemon.Decode[api.StatusReply](t, out); len(st.Snaps.Polled) != 0 || !strings.HasPrefix(st.Snaps.Idle, "no subscriber") {
		t.Errorf("status after nats sub left: %s", out)
	}
}
