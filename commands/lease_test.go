package commands

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testkit"
)

// fakeLeaseHost is a LeaseHost in memory: a store with revisions and TTLs, events delivered to
// watchers at once, connections that a test closes.
type fakeLeaseHost struct {
	mu      sync.Mutex
	rev     uint64
	entries map[string]fakeEntry
	events  []api.LeaseEvent
	watches map[int]fakeWatch
	nextID  int
	gone    map[uint64]bool
}

type fakeEntry struct {
	lease api.Lease
	rev   uint64
	ttl   time.Duration
}

type fakeWatch struct {
	filters []string
	changed chan<- struct{}
}

func newFakeLeaseHost() *fakeLeaseHost {
	return &fakeLeaseHost{entries: map[string]fakeEntry{}, watches: map[int]fakeWatch{}, gone: map[uint64]bool{}}
}

func (f *fakeLeaseHost) Put(_ context.Context, key string, l api.Lease, rev uint64, ttl time.Duration) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.entries[key]; (ok && e.rev != rev) || (!ok && rev != 0) {
		return 0, ErrLeaseConflict
	}
	f.rev++
	f.entries[key] = fakeEntry{l, f.rev, ttl}
	return f.rev, nil
}

func (f *fakeLeaseHost) Delete(_ context.Context, key string, rev uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.entries[key]; ok && e.rev == rev {
		delete(f.entries, key)
	}
}

func (f *fakeLeaseHost) Publish(ev api.LeaseEvent) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, ev)
	for _, w := range f.watches {
		for _, filter := range w.filters {
			if keyMatches(filter, ev.Lease.Key) {
				select {
				case w.changed <- struct{}{}:
				default:
				}
			}
		}
	}
}

// keyMatches is NATS's subject matching over keys.
func keyMatches(filter, key string) bool {
	ft, kt := strings.Split(filter, "."), strings.Split(key, ".")
	for i, t := range ft {
		switch {
		case t == ">":
			return len(kt) > i
		case i >= len(kt):
			return false
		case t != "*" && t != kt[i]:
			return false
		}
	}
	return len(ft) == len(kt)
}

func (f *fakeLeaseHost) Watch(filters []string, changed chan<- struct{}) (func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.nextID
	f.nextID++
	f.watches[id] = fakeWatch{filters, changed}
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.watches, id)
	}, nil
}

func (f *fakeLeaseHost) Connected(_ string, conn uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.gone[conn]
}

func (f *fakeLeaseHost) closeConn(conn uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gone[conn] = true
}

func (f *fakeLeaseHost) watching() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.watches)
}

func (f *fakeLeaseHost) eventsOf(key string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, ev := range f.events {
		if ev.Lease.Key == key {
			out = append(out, ev.Event+" "+ev.Lease.Holder)
		}
	}
	return out
}

var (
	alice = api.Identity{Name: "alice", Role: api.RoleAgent, Conn: 11}
	bob   = api.Identity{Name: "bob", Role: api.RoleAgent, Conn: 12}
)

// leaseRig is the action engine on the simulated desktop with leases on a fake host.
type leaseRig struct {
	*rig
	host   *fakeLeaseHost
	leases *Leases
}

func newLeaseRig(t *testing.T) *leaseRig {
	t.Helper()
	host := newFakeLeaseHost()
	var leases *Leases
	r := newRig(t, func(e *Engine) {
		leases = NewLeases(e.o, host, WithLeaseSweep(20*time.Millisecond))
		e.leases = leases
	})
	t.Cleanup(leases.Close)
	return &leaseRig{rig: r, host: host, leases: leases}
}

func (r *leaseRig) lease(t *testing.T, who api.Identity, req api.LeaseRequest) (*api.LeaseReply, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(api.WithIdentity(context.Background(), who), 30*time.Second)
	defer cancel()
	return r.leases.Serve(ctx, req)
}

func (r *leaseRig) mustLease(t *testing.T, who api.Identity, req api.LeaseRequest) *api.Lease {
	t.Helper()
	reply, err := r.lease(t, who, req)
	if err != nil {
		t.Fatalf("%s %s: %v", who.Name, req.Op, err)
	}
	return reply.Lease
}

func (r *leaseRig) act(t *testing.T, who api.Identity, action string, req api.ActionRequest) (*api.ActionReply, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(api.WithIdentity(context.Background(), who), 30*time.Second)
	defer cancel()
	return r.e.Do(ctx, action, req)
}

// heldBy fails unless err is LEASE_HELD naming holder.
func heldBy(t *testing.T, err error, holder string) {
	t.Helper()
	e := model.AsError(err)
	if e == nil || e.Code != model.CodeLeaseHeld || e.Details["holder"] != holder || e.Details["expires"] == nil ||
		!strings.Contains(e.Message, holder) || !strings.Contains(e.Suggestion, "--wait") {
		t.Fatalf("want LEASE_HELD by %s, got %#v", holder, e)
	}
}

func TestALeasedAppRefusesAnotherIdentitysActions(t *testing.T) {
	r := newLeaseRig(t)
	l := r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: api.AppTarget{App: "Notes"}})
	if l.Key != "app.notes.501" || l.Holder != "alice" || l.Conn != 11 || l.What != api.LeaseApp ||
		l.Expires.Sub(l.Acquired) != api.DefaultLeaseTTL || l.App == nil || l.App.PID != notes {
		t.Fatalf("lease %+v", l)
	}
	_, err := r.act(t, bob, "click", api.ActionRequest{Target: r.target(t, "save")})
	heldBy(t, err, "alice")
	if _, err := r.act(t, bob, "key", api.ActionRequest{AppTarget: api.AppTarget{PID: notes}, Keys: "cmd+s", Policy: api.PolicyPhysical}); model.CodeOf(err) != model.CodeLeaseHeld {
		t.Fatalf("bob's key on Notes: %v", err)
	}
	if len(r.desk.Inputs()) != 0 {
		t.Fatal("a refused key was sent")
	}
	for _, who := range []api.Identity{alice, api.Daemon} { // the holder, and the daemon itself
		if _, err := r.act(t, who, "click", api.ActionRequest{Target: r.target(t, "save")}); err != nil {
			t.Fatalf("%s's click: %v", who.Name, err)
		}
	}
	if _, err := r.act(t, bob, "click", api.ActionRequest{Target: r.targetIn(t, mail, "", "compose")}); err != nil {
		t.Fatalf("bob's click on Mail, which nobody leases: %v", err)
	}
	// Reads never need a lease: nothing here checks them; another's lease is refused.
	if _, err := r.lease(t, bob, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: api.AppTarget{PID: notes}}); model.CodeOf(err) != model.CodeLeaseHeld {
		t.Fatalf("bob's acquire: %v", err)
	}
	for _, op := range []string{api.LeaseRenew, api.LeaseRelease} {
		_, err := r.lease(t, bob, api.LeaseRequest{Op: op, Key: l.Key})
		heldBy(t, err, "alice")
	}
	if got := r.host.eventsOf(l.Key); strings.Join(got, ",") != "acquired alice" {
		t.Fatalf("events %v", got)
	}
}

func TestAWindowLeaseAndItsAppsLease(t *testing.T) {
	r := newLeaseRig(t)
	send := r.openCompose(t) // Mail has two windows now
	r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: api.AppTarget{PID: mail}, Window: "Inbox"})
	_, err := r.act(t, bob, "click", api.ActionRequest{Target: r.targetIn(t, mail, "Inbox", "compose")})
	heldBy(t, err, "alice")
	if _, err := r.act(t, bob, "click", api.ActionRequest{Target: send}); err != nil {
		t.Fatalf("bob's click in the other window: %v", err)
	}
	if _, err := r.lease(t, bob, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: api.AppTarget{PID: mail}}); model.CodeOf(err) != model.CodeLeaseHeld {
		t.Fatalf("bob's lease on all of Mail while alice holds its inbox: %v", err)
	}
	ls, err := r.lease(t, bob, api.LeaseRequest{Op: api.LeaseList, AppTarget: api.AppTarget{PID: mail}})
	if err != nil || len(ls.Leases) != 1 || ls.Leases[0].What != api.LeaseWindow || ls.Leases[0].Window.Title != "Inbox" {
		t.Fatalf("ls %+v %v", ls, err)
	}
}

func TestAWaitingAcquireIsWokenByTheRelease(t *testing.T) {
	r := newLeaseRig(t)
	notesApp := api.AppTarget{PID: notes}
	r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: notesApp})
	got := make(chan *api.LeaseReply, 1)
	go func() {
		reply, err := r.lease(t, bob, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: notesApp, WaitMS: 10000})
		if err != nil {
			t.Error(err)
		}
		got <- reply
	}()
	testkit.Eventually(t, 5*time.Second, "bob listening for changes", func() bool { return r.host.watching() != 0 })
	r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseRelease, AppTarget: notesApp})
	released := time.Now()
	select {
	case reply := <-got:
		if took := time.Since(released); reply == nil || reply.Lease.Holder != "bob" || took > 50*time.Millisecond {
			t.Fatalf("bob got %+v %v after the release", reply, took)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("bob's acquire was not woken by alice's release")
	}
	if r.host.watching() != 0 {
		t.Fatal("the waiter's subscription outlived it")
	}
}

func TestALeaseEndsWithItsHoldersConnectionAndAtItsTTL(t *testing.T) {
	r := newLeaseRig(t)
	notesApp := api.AppTarget{PID: notes}
	r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: notesApp})
	r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseAcquire, Input: true})
	r.host.closeConn(alice.Conn)
	start := time.Now()
	l := r.mustLease(t, bob, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: notesApp, WaitMS: 5000, TTLMS: 1000})
	if l.Holder != "bob" {
		t.Fatalf("lease %+v", l)
	}
	// the sweeper ends alice's input lease too
	testkit.Eventually(t, 2*time.Second, "alice, her connection gone, holding nothing", func() bool { return len(r.leases.HeldBy("alice")) == 0 })
	if got := strings.Join(r.host.eventsOf(api.InputLeaseKey), ","); got != "acquired alice,holder_gone alice" {
		t.Fatalf("input lease events %s", got)
	}
	// bob's 1 s lease expires by itself; a waiting acquire of alice's new connection gets it.
	alice2 := alice
	alice2.Conn = 21
	l = r.mustLease(t, alice2, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: notesApp, WaitMS: 5000})
	if took := time.Since(start); l.Holder != "alice" || took < time.Second || took > 3*time.Second {
		t.Fatalf("lease %+v after %v", l, took)
	}
	want := "acquired alice,holder_gone alice,acquired bob,expired bob,acquired alice"
	if got := strings.Join(r.host.eventsOf("app.notes.501"), ","); got != want {
		t.Fatalf("events\n  %s\nwant\n  %s", got, want)
	}
}

func TestRenewingKeepsTheTTLInTheStore(t *testing.T) {
	r := newLeaseRig(t)
	l := r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: api.AppTarget{PID: notes}, TTLMS: 2000})
	first := r.host.entries[l.Key]
	renewed := r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseRenew, Key: l.Key, TTLMS: 60000})
	e := r.host.entries[l.Key]
	if e.ttl != time.Minute || e.rev <= first.rev || !renewed.Expires.After(l.Expires) || !renewed.Acquired.Equal(l.Acquired) ||
		renewed.Conn != l.Conn {
		t.Fatalf("renewed %+v entry %+v", renewed, e)
	}
	r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseRelease, Key: l.Key})
	if _, ok := r.host.entries[l.Key]; ok {
		t.Fatal("a released lease is still in the store")
	}
	if _, err := r.lease(t, alice, api.LeaseRequest{Op: api.LeaseRenew, Key: l.Key}); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("renewing a released lease: %v", err)
	}
}

func TestPhysicalInputTakesTheInputLease(t *testing.T) {
	r := newLeaseRig(t)
	key := api.ActionRequest{AppTarget: api.AppTarget{PID: notes}, Keys: "cmd+s", Policy: api.PolicyPhysical}
	if _, err := r.act(t, bob, "key", key); err != nil {
		t.Fatalf("bob's key while input is free: %v", err)
	}
	if got := strings.Join(r.host.eventsOf(api.InputLeaseKey), ","); got != "acquired bob,released bob" {
		t.Fatalf("the key's input lease: %s", got)
	}
	if n := len(r.leases.List()); n != 0 {
		t.Fatalf("%d leases left after the key", n)
	}
	r.mustLease(t, alice, api.LeaseRequest{Op: api.LeaseAcquire, Input: true})
	sent := len(r.desk.Inputs())
	_, err := r.act(t, bob, "key", key)
	heldBy(t, err, "alice")
	if trace, _ := model.AsError(err).Details["trace"].([]api.TraceStep); len(trace) == 0 || trace[0].Result != string(model.CodeLeaseHeld) {
		t.Fatalf("trace %+v", model.AsError(err).Details["trace"])
	}
	if len(r.desk.Inputs()) != sent {
		t.Fatal("bob's key went out while alice holds the input")
	}
	// A headless click of bob never asks for the input lease; alice's own key uses hers.
	if _, err := r.act(t, bob, "click", api.ActionRequest{Target: r.target(t, "save")}); err != nil {
		t.Fatalf("bob's headless click: %v", err)
	}
	if _, err := r.act(t, alice, "key", key); err != nil {
		t.Fatalf("alice's key: %v", err)
	}
	if ls := r.leases.List(); len(ls) != 1 || ls[0].Holder != "alice" || ls[0].Action != "" {
		t.Fatalf("alice's input lease after her key: %+v", ls)
	}
}

func TestLeaseRequestsRefused(t *testing.T) {
	r := newLeaseRig(t)
	for _, req := range []api.LeaseRequest{
		{Op: api.LeaseAcquire},
		{Op: api.LeaseAcquire, Key: "input"},
		{Op: api.LeaseAcquire, Input: true, AppTarget: api.AppTarget{PID: notes}},
		{Op: api.LeaseAcquire, Input: true, TTLMS: 500},
		{Op: api.LeaseAcquire, Input: true, WaitMS: int(api.MaxLeaseWait.Milliseconds()) + 1},
		{Op: api.LeaseRelease, Key: "input"},
		{Op: "steal"},
	} {
		if _, err := r.lease(t, alice, req); model.CodeOf(err) != model.CodeBadRequest {
			t.Errorf("%+v: %v", req, err)
		}
	}
	if _, err := r.lease(t, alice, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: api.AppTarget{App: "Nothing"}}); model.CodeOf(err) != model.CodeAppNotFound {
		t.Errorf("an app that is not there: %v", err)
	}
	if !errors.Is(ErrLeaseConflict, ErrLeaseConflict) || !keyMatches("app.notes.501.>", "app.notes.501.w1") || keyMatches("app.notes.501.>", "app.notes.501") {
		t.Fatal("the fake's matching")
	}
}
