package testdaemon

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/nats-io/nats.go"
)

// LeaseAgent is an identity made through the creds endpoint, connected as itself.
type LeaseAgent struct {
	Name   string
	Seed   string // its nkey seed file
	NC     *nats.Conn
	Client *client.Client
}

// NewLeaseAgent adds an identity of role to d (as its owner) and connects as it.
func NewLeaseAgent(t *testing.T, d *Daemon, name, role string) *LeaseAgent {
	t.Helper()
	seed, pub := NewNkey(t, name)
	a := &LeaseAgent{Name: name, Seed: seed}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := Client(t, d.Connect(t)).Creds(ctx, api.CredsRequest{Op: "add", Name: name, Role: role, Nkey: pub}); err != nil {
		t.Fatal(err)
	}
	a.Connect(t, d)
	return a
}

// Connect connects the agent again, a new connection of the same identity.
func (a *LeaseAgent) Connect(t *testing.T, d *Daemon) {
	t.Helper()
	opt, err := nats.NkeyOptionFromSeed(a.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if a.NC, err = nats.Connect(d.Server.ClientURL(), opt, nats.Name(a.Name)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.NC.Close)
	a.Client = Client(t, a.NC)
}

func (a *LeaseAgent) Lease(t *testing.T, req api.LeaseRequest) (*api.LeaseReply, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := a.Client.Lease(ctx, req)
	if err == nil {
		MustMatch(t, "lease.reply", MustJSON(t, r))
	}
	return r, err
}

func (a *LeaseAgent) MustLease(t *testing.T, req api.LeaseRequest) *api.LeaseReply {
	t.Helper()
	r, err := a.Lease(t, req)
	if err != nil {
		t.Fatalf("%s: lease %s: %v", a.Name, req.Op, err)
	}
	return r
}

func (a *LeaseAgent) Act(t *testing.T, action string, req api.ActionRequest) (*api.ActionReply, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return a.Client.Act(ctx, action, req)
}

// InspectTarget is SNAPSHOT:ELEMENT of the element of app's window with this role and name.
func (a *LeaseAgent) InspectTarget(t *testing.T, app api.AppTarget, role model.Role, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	insp, err := a.Client.Inspect(ctx, api.InspectRequest{AppTarget: app})
	if err != nil {
		t.Fatal(err)
	}
	for _, el := range insp.Elements {
		if el.Role == role && (el.Name == name || el.Label == name) {
			return insp.SnapshotID + ":" + el.ID
		}
	}
	t.Fatalf("no %s %q", role, name)
	return ""
}

func MustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// MustBeHeldBy fails unless err is LEASE_HELD naming holder, with its expiry.
func MustBeHeldBy(t *testing.T, what string, err error, holder string) {
	t.Helper()
	e := model.AsError(err)
	if e == nil || e.Code != model.CodeLeaseHeld || e.Details["holder"] != holder || e.Details["expires"] == nil ||
		!strings.Contains(e.Message, holder) || e.Suggestion == "" {
		t.Fatalf("%s: want LEASE_HELD naming %s, got %#v", what, holder, e)
	}
}

// LeaseEvents records the lease changes a subscriber of every lease subject sees.
type LeaseEvents struct {
	mu  sync.Mutex
	evs []api.LeaseEvent
}

// WatchLeases subscribes nc to every lease change of subj.
func WatchLeases(t *testing.T, nc *nats.Conn, subj api.Subjects) *LeaseEvents {
	t.Helper()
	le := &LeaseEvents{}
	sub, err := nc.Subscribe(subj.AllLeases(), func(m *nats.Msg) {
		var ev api.LeaseEvent
		if err := json.Unmarshal(m.Data, &ev); err != nil || !strings.HasSuffix(m.Subject, ".lease."+ev.Lease.Key) {
			t.Errorf("lease event on %s: %v %s", m.Subject, err, m.Data)
		}
		le.mu.Lock()
		le.evs = append(le.evs, ev)
		le.mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return le
}

// Of is the events of key so far: "event holder", in order.
func (le *LeaseEvents) Of(key string) []string {
	le.mu.Lock()
	defer le.mu.Unlock()
	var out []string
	for _, ev := range le.evs {
		if ev.Lease.Key == key {
			out = append(out, ev.Event+" "+ev.Lease.Holder)
		}
	}
	return out
}

// AwaitEvents waits until key's events are want.
func (le *LeaseEvents) AwaitEvents(t *testing.T, key string, want ...string) {
	t.Helper()
	if !testkit.Within(5*time.Second, func() bool { return strings.Join(le.Of(key), ",") == strings.Join(want, ",") }) {
		t.Fatalf("events of %s\n  %v\nwant\n  %v", key, le.Of(key), want)
	}
}

// WaitingAcquire starts b's acquire with a wait and returns once the daemon is subscribed to
// the changes of key on b's behalf; the reply comes on the channel with the time it came.
func WaitingAcquire(t *testing.T, d *Daemon, b *LeaseAgent, req api.LeaseRequest, key string) <-chan Acquired {
	t.Helper()
	subject := d.Subjects.Lease(key)
	before := d.Server.Interest(subject)
	got := make(chan Acquired, 1)
	go func() {
		r, err := b.Client.Lease(context.Background(), req)
		got <- Acquired{r, err, time.Now()}
	}()
	testkit.Eventually(t, 5*time.Second, fmt.Sprintf("%s's acquire listening for changes of %s", b.Name, key),
		func() bool { return d.Server.Interest(subject) > before })
	return got
}

// Acquired is the reply to an acquire that waited, with the time it came.
type Acquired struct {
	Reply *api.LeaseReply
	Err   error
	At    time.Time
}

// Holder fails unless the lease came to who.
func (a Acquired) Holder(t *testing.T, who string) {
	t.Helper()
	if a.Err != nil || a.Reply.Lease == nil || a.Reply.Lease.Holder != who {
		t.Fatalf("want the lease for %s, got %+v %v", who, a.Reply, a.Err)
	}
}
