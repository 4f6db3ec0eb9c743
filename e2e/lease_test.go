package e2e

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// leaseKV is the value and the TTL the daemon's bucket keeps for key.
func leaseKV(t *testing.T, d *testDaemon, key string) (api.Lease, time.Duration, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := d.Server.JetStream().Stream(ctx, "KV_AXBUS_LEASES_TESTHOST")
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.GetLastMsgForSubject(ctx, "$KV.AXBUS_LEASES_TESTHOST."+key)
	if err != nil || len(m.Data) == 0 {
		return api.Lease{}, 0, false
	}
	var l api.Lease
	if err := json.Unmarshal(m.Data, &l); err != nil {
		t.Fatal(err)
	}
	ttl, _ := time.ParseDuration(m.Header.Get("Nats-TTL"))
	return l, ttl, true
}

// TestLeasesBetweenTwoAgents: two identities on the simulated desktop. alice's lease on Notes
// refuses bob's click (LEASE_HELD naming her); bob's waiting acquire gets it the moment she
// releases it; her leases end with her connection; bob's physical key is refused while she
// holds the input lease.
func TestLeasesBetweenTwoAgents(t *testing.T) {
	d := startTestDaemon(t)
	alice := testdaemon.NewLeaseAgent(t, d.Daemon, "alice", "agent")
	bob := testdaemon.NewLeaseAgent(t, d.Daemon, "bob", "agent")
	events := testdaemon.WatchLeases(t, d.Connect(t), d.Subjects)
	notes := api.AppTarget{App: "Notes"}
	const key = "app.notes.501"

	l := alice.MustLease(t, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: notes}).Lease
	if l.Key != key || l.Holder != "alice" || l.Conn == 0 || l.App == nil || l.App.PID != 501 || l.TTLMS != 30000 {
		t.Fatalf("alice's lease %+v", l)
	}
	if kv, ttl, ok := leaseKV(t, d, key); !ok || kv.Holder != "alice" || ttl != 31*time.Second {
		t.Fatalf("the bucket keeps %+v with TTL %q", kv, ttl)
	}
	// A renewal keeps a TTL on the entry (KeyValue.Update would drop it: nats.go#1994).
	alice.MustLease(t, api.LeaseRequest{Op: api.LeaseRenew, Key: key, TTLMS: 120000})
	if kv, ttl, ok := leaseKV(t, d, key); !ok || kv.TTLMS != 120000 || ttl != 121*time.Second {
		t.Fatalf("after renew the bucket keeps %+v with TTL %q", kv, ttl)
	}

	save := bob.InspectTarget(t, notes, model.RoleButton, "Save") // reads need no lease
	_, err := bob.Act(t, "click", api.ActionRequest{Target: save})
	testdaemon.MustBeHeldBy(t, "bob's click", err, "alice")
	var out, errb strings.Builder
	code := run(context.Background(), []string{"click", save, "-s", d.Server.ClientURL(), "--nkey", bob.Seed}, &out, &errb)
	if code != 13 || !strings.Contains(errb.String(), "LEASE_HELD") || !strings.Contains(errb.String(), "alice holds the lease on Notes") {
		t.Fatalf("bob's axbus click: exit %d\n%s", code, errb.String())
	}
	for _, op := range []string{api.LeaseRenew, api.LeaseRelease} {
		_, err := bob.Lease(t, api.LeaseRequest{Op: op, AppTarget: notes})
		testdaemon.MustBeHeldBy(t, "bob's "+op, err, "alice")
	}

	got := testdaemon.WaitingAcquire(t, d.Daemon, bob, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: notes, WaitMS: 10000}, key)
	testkit.Eventually(t, 5*time.Second, "bob waiting for the lease, as agents says", func() bool { // who waits for what
		r, err := alice.Client.Agents(context.Background())
		return err == nil && slices.ContainsFunc(r.Agents, func(a api.Agent) bool { return a.Name == "bob" && slices.Equal(a.Waiting, []string{key}) })
	})
	asked := time.Now()
	alice.MustLease(t, api.LeaseRequest{Op: api.LeaseRelease, AppTarget: notes})
	released := time.Now()
	b := <-got
	b.Holder(t, "bob")
	// Bob's reply may come before alice's: the daemon publishes the change before it replies.
	t.Logf("bob's acquire reply came %v after alice's release reply, %v after her release request (bob waited %.1f ms)",
		b.At.Sub(released), b.At.Sub(asked), b.Reply.WaitedMS)
	if took := b.At.Sub(asked); took > 50*time.Millisecond {
		t.Errorf("bob got the lease %v after alice asked to release it; want < 50 ms", took)
	}
	if _, err := bob.Act(t, "click", api.ActionRequest{Target: save}); err != nil {
		t.Fatalf("bob's click with his lease: %v", err)
	}

	// alice's connection goes: her leases end (the app's and the input's).
	bob.MustLease(t, api.LeaseRequest{Op: api.LeaseRelease, Key: key})
	alice.MustLease(t, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: notes})
	alice.MustLease(t, api.LeaseRequest{Op: api.LeaseAcquire, Input: true})
	got = testdaemon.WaitingAcquire(t, d.Daemon, bob, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: notes, WaitMS: 10000}, key)
	alice.NC.Close()
	closed := time.Now()
	b = <-got
	b.Holder(t, "bob")
	t.Logf("from alice's connection closing to bob's acquire reply: %v", b.At.Sub(closed))
	events.AwaitEvents(t, api.InputLeaseKey, "acquired alice", "holder_gone alice")
	ls := bob.MustLease(t, api.LeaseRequest{Op: api.LeaseList})
	if len(ls.Leases) != 1 || ls.Leases[0].Holder != "bob" {
		t.Fatalf("leases after alice's connection went: %+v", ls.Leases)
	}

	// A physical key of bob's takes the input lease for its length when it is free, and is
	// refused while alice (connected again) holds it.
	keys := api.ActionRequest{AppTarget: api.AppTarget{PID: 501}, Keys: "cmd+s", Policy: api.PolicyPhysical}
	if r, err := bob.Act(t, "key", keys); err != nil || r.Mechanism != "physical" {
		t.Fatalf("bob's key while input is free: %+v %v", r, err)
	}
	alice.Connect(t, d.Daemon)
	alice.MustLease(t, api.LeaseRequest{Op: api.LeaseAcquire, Input: true})
	_, err = bob.Act(t, "key", keys)
	testdaemon.MustBeHeldBy(t, "bob's key", err, "alice")
	events.AwaitEvents(t, api.InputLeaseKey, "acquired alice", "holder_gone alice", "acquired bob", "released bob", "acquired alice")
	events.AwaitEvents(t, key, "acquired alice", "renewed alice", "released alice", "acquired bob", "released bob",
		"acquired alice", "holder_gone alice", "acquired bob")

	// A monitor has no route to the lease endpoint.
	mon := testdaemon.NewLeaseAgent(t, d.Daemon, "watcher", "monitor")
	if _, err := mon.Lease(t, api.LeaseRequest{Op: api.LeaseList}); model.CodeOf(err) != model.CodePermissionDenied {
		t.Fatalf("a monitor's lease ls: %v", err)
	}
}

// TestLeaseExpiresAtItsTTL: a lease nobody renews ends at its TTL, and a waiter gets it.
func TestLeaseExpiresAtItsTTL(t *testing.T) {
	d := startTestDaemon(t)
	alice := testdaemon.NewLeaseAgent(t, d.Daemon, "alice", "agent")
	bob := testdaemon.NewLeaseAgent(t, d.Daemon, "bob", "agent")
	events := testdaemon.WatchLeases(t, d.Connect(t), d.Subjects)
	mail := api.AppTarget{App: "Mail"}
	l := alice.MustLease(t, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: mail, TTLMS: 1000}).Lease
	got := testdaemon.WaitingAcquire(t, d.Daemon, bob, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: mail, WaitMS: 5000}, l.Key)
	b := <-got
	b.Holder(t, "bob")
	if late := b.At.Sub(l.Expires); late < 0 || late > 100*time.Millisecond {
		t.Fatalf("bob got it %v after alice's lease expired", late)
	}
	events.AwaitEvents(t, l.Key, "acquired alice", "expired alice", "acquired bob")
}

// leaseCLI runs an axbus lease command as the daemon's owner.
func leaseCLI(t *testing.T, d *testDaemon, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code = run(ctx, append(append([]string{"lease"}, args...), "--state-dir", d.Dir), &out, &errb)
	return out.String(), errb.String(), code
}

// TestLeaseCommands: axbus lease acquire holds its lease while it runs and releases it when
// stopped; ls, renew and release name it; a second acquire waits for it.
func TestLeaseCommands(t *testing.T) {
	d := startTestDaemon(t)
	bob := testdaemon.NewLeaseAgent(t, d.Daemon, "bob", "agent")
	url := d.Server.ClientURL()
	ctx, stop := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errb testkit.Buffer
	go func() {
		done <- run(ctx, []string{"lease", "acquire", "--app", "Notes", "--ttl", "2s", "-s", url, "--nkey", bob.Seed}, pw, &errb)
		_ = pw.Close()
	}()
	line, ok := <-testdaemon.FirstJSONLine(pr)
	if !ok {
		t.Fatalf("lease acquire printed nothing: %s", errb.String())
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	testdaemon.MustMatch(t, "lease.reply", []byte(line))
	held := testdaemon.Decode[api.LeaseReply](t, line)
	if held.Lease == nil || held.Lease.Holder != "bob" || held.Lease.Key != "app.notes.501" {
		t.Fatalf("acquire printed %s", line)
	}
	// Past its first TTL the lease is still bob's, renewed by the command.
	var out, errs string
	var code int
	if !testkit.Within(10*time.Second, func() bool {
		if !time.Now().After(held.Lease.Expires) {
			return false
		}
		out, errs, code = leaseCLI(t, d, "ls")
		ls := testdaemon.Decode[api.LeaseReply](t, out)
		return code == 0 && len(ls.Leases) == 1 && ls.Leases[0].Holder == "bob" && ls.Leases[0].Expires.After(held.Lease.Expires)
	}) {
		t.Fatalf("lease ls past the first TTL: exit %d %s %s", code, out, errs)
	}
	_, errs, code = leaseCLI(t, d, "acquire", "--app", "Notes")
	if code != 13 || !strings.Contains(errs, "bob holds the lease") {
		t.Fatalf("the owner's acquire: exit %d %s", code, errs)
	}
	if _, errs, code = leaseCLI(t, d, "release", "--key", "app.notes.501"); code != 13 {
		t.Fatalf("the owner's release of bob's lease: exit %d %s", code, errs)
	}
	stop()
	if code := <-done; code != 0 {
		t.Fatalf("lease acquire exited %d: %s", code, errb.String())
	}
	if out, _, code = leaseCLI(t, d, "ls"); code != 0 || strings.TrimSpace(out) != `{"leases":[]}` {
		t.Fatalf("after the command stopped: exit %d %s", code, out)
	}
	// Released by another command of the same identity, the holding command ends without error.
	ctx2, stop2 := context.WithCancel(context.Background())
	defer stop2()
	pr2, pw2 := io.Pipe()
	go func() {
		done <- run(ctx2, []string{"lease", "acquire", "--input", "-s", url, "--nkey", bob.Seed}, pw2, io.Discard)
		_ = pw2.Close()
	}()
	if _, ok := <-testdaemon.FirstJSONLine(pr2); !ok {
		t.Fatal("lease acquire --input printed nothing")
	}
	go func() { _, _ = io.Copy(io.Discard, pr2) }()
	var o strings.Builder
	if code := run(context.Background(), []string{"lease", "release", "--input", "-s", url, "--nkey", bob.Seed}, &o, io.Discard); code != 0 {
		t.Fatalf("release: exit %d %s", code, o.String())
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("the holding command exited %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the holding command did not see its lease released")
	}
}

// TestLeasesDoNotOutliveTheDaemon: a daemon started again on the same state dir begins with no
// leases: those of the last run were tied to its connections.
func TestLeasesDoNotOutliveTheDaemon(t *testing.T) {
	dir := t.TempDir()
	start := func() *testDaemon {
		d, err := daemon.Start(daemon.Config{Backend: "sim", Desktop: "demo", StateDir: dir, Listen: "127.0.0.1:0", Host: "testhost"})
		if err != nil {
			t.Fatal(err)
		}
		return &testDaemon{&testdaemon.Daemon{Daemon: d, Dir: dir}}
	}
	stop := func(d *testDaemon) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	d := start()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// The daemon's own: no connection of a client to end it before the daemon stops.
	if _, err := d.Leases.Serve(ctx, api.LeaseRequest{Op: api.LeaseAcquire, Input: true, TTLMS: 600000}); err != nil {
		t.Fatal(err)
	}
	stop(d)
	st, err := embedded.Start(embedded.WithStateDir(dir), embedded.WithListen("127.0.0.1:0"), embedded.WithKeyValue("AXBUS_LEASES_TESTHOST"),
		embedded.WithAccess(map[string]embedded.Grant{api.RoleAdmin: {}}, api.RoleAdmin)) // the daemon's account: its JetStream
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := leaseKV(t, &testDaemon{&testdaemon.Daemon{Daemon: &daemon.Daemon{Server: st}}}, api.InputLeaseKey); !ok {
		t.Fatal("the bucket did not keep the lease") // else the test below proves nothing
	}
	if err := st.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	d = start()
	defer stop(d)
	if l, _, ok := leaseKV(t, d, api.InputLeaseKey); ok {
		t.Fatalf("the bucket kept %+v from the last run", l)
	}
	if ls := d.Leases.List(); len(ls) != 0 {
		t.Fatalf("leases %+v", ls)
	}
}
