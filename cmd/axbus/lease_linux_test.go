package main

import (
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// TestDesktopLeasesBetweenTwoAgentsGTK3: two identities on the GTK3 fixture. alice's lease
// refuses bob's click (LEASE_HELD naming her; the app saw no click); bob's waiting acquire gets
// the lease the moment she releases it, and his click saves; when the server drops alice's
// connection her leases end; bob's physical key is refused while she holds the input lease.
func TestDesktopLeasesBetweenTwoAgentsGTK3(t *testing.T) {
	const kind = headless.KindGTK3
	dd := startDesktopDaemon(t, kind)
	alice := testdaemon.NewLeaseAgent(t, dd.Daemon, "alice", "agent")
	bob := testdaemon.NewLeaseAgent(t, dd.Daemon, "bob", "agent")
	events := testdaemon.WatchLeases(t, dd.nc, dd.Subjects)
	app := api.AppTarget{PID: dd.apps[kind].PID}

	key := alice.MustLease(t, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: app}).Lease.Key
	saves := dd.state(t, kind).Saves
	save := bob.InspectTarget(t, app, model.RoleButton, "Save")
	_, err := bob.Act(t, "click", api.ActionRequest{Target: save})
	testdaemon.MustBeHeldBy(t, "bob's click", err, "alice")

	got := testdaemon.WaitingAcquire(t, dd.Daemon, bob, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: app, WaitMS: 10000}, key)
	asked := time.Now()
	alice.MustLease(t, api.LeaseRequest{Op: api.LeaseRelease, AppTarget: app})
	released := time.Now()
	b := <-got
	b.Holder(t, "bob")
	t.Logf("bob's acquire reply came %v after alice's release reply, %v after her release request", b.At.Sub(released), b.At.Sub(asked))
	// The release happens somewhere between her request and its reply (finding the app by pid
	// reads the desktop, tens of ms under the race detector); bob's wait, woken by it, must
	// answer inside that span or just after it, never a poll period later.
	if b.At.Before(asked) {
		t.Errorf("bob got the lease %v before alice asked to release it", asked.Sub(b.At))
	}
	if late := b.At.Sub(released); late > 50*time.Millisecond {
		t.Errorf("bob got the lease %v after alice's release reply; want < 50 ms", late)
	}
	if s := dd.state(t, kind); s.Saves != saves {
		t.Fatalf("the app saved %d times while alice held it", s.Saves-saves)
	}
	if _, err := bob.Act(t, "click", api.ActionRequest{Target: save}); err != nil {
		t.Fatalf("bob's click with his lease: %v", err)
	}
	dd.eventually(t, kind, "bob's click did not save", func(s headless.State) bool { return s.Saves == saves+1 })
	dd.do(t, kind, map[string]any{"cmd": "close_dialog"})

	// The server drops alice's connection: her leases on the app and the input end.
	bob.MustLease(t, api.LeaseRequest{Op: api.LeaseRelease, Key: key})
	alice.MustLease(t, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: app})
	cid, err := alice.NC.GetClientID()
	if err != nil {
		t.Fatal(err)
	}
	alice.MustLease(t, api.LeaseRequest{Op: api.LeaseAcquire, Input: true})
	got = testdaemon.WaitingAcquire(t, dd.Daemon, bob, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: app, WaitMS: 10000}, key)
	if err := dd.Server.NATS().DisconnectClientByID(cid); err != nil {
		t.Fatal(err)
	}
	dropped := time.Now()
	b = <-got
	b.Holder(t, "bob")
	t.Logf("from alice's connection dropped to bob's acquire reply: %v", b.At.Sub(dropped))
	events.AwaitEvents(t, api.InputLeaseKey, "acquired alice", "holder_gone alice")

	// alice (reconnected by her client, a new connection) takes the input: bob's key is refused.
	alice.MustLease(t, api.LeaseRequest{Op: api.LeaseAcquire, Input: true})
	_, err = bob.Act(t, "key", api.ActionRequest{AppTarget: app, Keys: "ctrl+s", Policy: api.PolicyPhysical})
	testdaemon.MustBeHeldBy(t, "bob's key", err, "alice")
	if s := dd.state(t, kind); s.Saves != saves+1 {
		t.Fatalf("bob's refused ctrl+s saved: %d saves", s.Saves-saves)
	}
}
