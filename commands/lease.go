package commands

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// Lease timing.
const (
	// DefaultLeaseSweep is how often the holders' connections are asked after while leases exist:
	// the longest a waiter waits past a holder's connection going.
	DefaultLeaseSweep = 200 * time.Millisecond
	// inputHoldTTL is the life of an input lease a physical action took for its length: its chain
	// and a margin, so that it ends by itself if the release is never reached.
	inputHoldTTL = ChainDeadline + 5*time.Second
	// storeTimeout bounds one write to the lease store.
	storeTimeout = 5 * time.Second
)

// ErrLeaseConflict is a lease store's refusal of a write whose revision is not the key's last.
var ErrLeaseConflict = errors.New("lease revision is not the last")

// LeaseHost is what leases need of the daemon: the store (a KV bucket with per-key TTL and
// compare-and-set), the lease events, and the server's word on connections.
type LeaseHost interface {
	// Put writes l at key if rev is key's last revision (0: key holds no lease), to live ttl in
	// the store; it returns the new revision, or ErrLeaseConflict.
	Put(ctx context.Context, key string, l api.Lease, rev uint64, ttl time.Duration) (uint64, error)
	// Delete removes key's lease if rev is still its last revision; a failure is the host's to
	// log (the entry's TTL removes it anyway).
	Delete(ctx context.Context, key string, rev uint64)
	// Publish sends a lease change on <prefix>.<host>.lease.<key>.
	Publish(ev api.LeaseEvent)
	// Watch signals changed (without blocking) at every lease event on a key that one of
	// filters matches (NATS wildcards over keys), from its return until stop.
	Watch(filters []string, changed chan<- struct{}) (stop func(), err error)
	// Connected says whether the server still has connection conn of identity name.
	Connected(name string, conn uint64) bool
}

// Leases keeps the leases of one daemon. It is their only writer: every change is made under
// its lock, written to the store first and published after, so that its own index (what
// actions are checked against) and the store say the same.
type Leases struct {
	o     *observer.Observer
	host  LeaseHost
	sweep time.Duration

	mu      sync.Mutex
	held    map[string]*held // by key
	closed  bool
	waiters leaseWaiters

	kick chan struct{} // a lease was taken: the sweeper wakes
	stop chan struct{}
	done chan struct{}
}

// held is one lease in force.
type held struct {
	api.Lease
	rev   uint64
	timer *time.Timer // ends it at Expires
	// holds counts the physical actions in flight that rely on it (an input lease).
	holds int
}

// LeaseOption configures Leases.
type LeaseOption func(*Leases)

// WithLeaseSweep replaces DefaultLeaseSweep.
func WithLeaseSweep(d time.Duration) LeaseOption { return func(l *Leases) { l.sweep = d } }

// NewLeases keeps leases on host for the apps of o, and starts the sweeper that ends the leases
// whose holder's connection went. Close stops it.
func NewLeases(o *observer.Observer, host LeaseHost, opts ...LeaseOption) *Leases {
	l := &Leases{o: o, host: host, sweep: DefaultLeaseSweep, held: map[string]*held{},
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	for _, opt := range opts {
		opt(l)
	}
	go l.sweeper()
	return l
}

// Close stops the sweeper and the expiry timers; the store keeps what it has (a daemon starting
// again clears it: its connections are new).
func (l *Leases) Close() {
	close(l.stop)
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for _, h := range l.held {
		h.timer.Stop()
	}
}

// Serve is the lease endpoint's operation, for the identity that asks (api.IdentityOf).
func (l *Leases) Serve(ctx context.Context, r api.LeaseRequest) (*api.LeaseReply, error) {
	who := api.IdentityOf(ctx)
	if r.Op == api.LeaseList {
		return l.list(ctx, r)
	}
	ttl := api.DefaultLeaseTTL
	if r.TTLMS != 0 {
		ttl = time.Duration(r.TTLMS) * time.Millisecond
	}
	if ttl < api.MinLeaseTTL || ttl > api.MaxLeaseTTL {
		return nil, model.Errorf(model.CodeBadRequest, "Give a TTL from 1s to 10m.", "a lease's ttl must be from %v to %v", api.MinLeaseTTL, api.MaxLeaseTTL)
	}
	switch r.Op {
	case api.LeaseAcquire:
		if r.Key != "" {
			return nil, model.Errorf(model.CodeBadRequest, "Name the app (app or pid), a window of it, or input.", "acquire names what it leases, not a key")
		}
		want, err := l.target(ctx, r)
		if err != nil {
			return nil, err
		}
		wait := time.Duration(r.WaitMS) * time.Millisecond
		if wait < 0 || wait > api.MaxLeaseWait {
			return nil, model.Errorf(model.CodeBadRequest, "Wait at most 5m.", "wait_ms must be from 0 to %d", api.MaxLeaseWait.Milliseconds())
		}
		return l.acquire(ctx, who, want, ttl, wait)
	case api.LeaseRenew, api.LeaseRelease:
		key := r.Key
		if key == "" {
			want, err := l.target(ctx, r)
			if err != nil {
				return nil, err
			}
			key = want.Key
		}
		if r.Op == api.LeaseRenew {
			return l.renew(ctx, who, key, ttl)
		}
		return l.release(ctx, who, key)
	}
	return nil, model.Errorf(model.CodeBadRequest, "Use op acquire, renew, release or ls.", "unknown lease op %q", r.Op)
}

// target is the lease a request names, its key and what it covers; holder and times unset.
func (l *Leases) target(ctx context.Context, r api.LeaseRequest) (api.Lease, error) {
	if r.Input {
		if r.App != "" || r.PID != 0 || r.Window != "" {
			return api.Lease{}, model.Errorf(model.CodeBadRequest, "Lease input alone: it is the whole host's.", "the input lease names no app or window")
		}
		return api.Lease{Key: api.InputLeaseKey, What: api.LeaseInput}, nil
	}
	if r.App == "" && r.PID == 0 {
		return api.Lease{}, model.Errorf(model.CodeBadRequest, "Name the app (app or pid), a window of it (and window), or input.", "the lease names nothing")
	}
	if r.Window == "" {
		app, err := l.o.FindApp(ctx, r.Query())
		if err != nil {
			return api.Lease{}, err
		}
		ref := app.Ref()
		return api.Lease{Key: api.AppLeaseKey(app.Name, app.PID), What: api.LeaseApp, App: &ref}, nil
	}
	app, w, err := l.o.Window(ctx, r.Query(), r.Window)
	if err != nil {
		return api.Lease{}, err
	}
	ref := app.Ref()
	wref := w.RefOf()
	return api.Lease{Key: api.WindowLeaseKey(app.Name, app.PID, w.ID), What: api.LeaseWindow, App: &ref, Window: &wref}, nil
}

// acquire takes want for who, waiting up to wait for it to be free: each change of a lease that
// stands in the way is an event it is subscribed to before it first looks, so none is missed.
func (l *Leases) acquire(ctx context.Context, who api.Identity, want api.Lease, ttl, wait time.Duration) (*api.LeaseReply, error) {
	start := time.Now()
	var waiting func() // set once it waits: presence shows it
	var changed chan struct{}
	var deadline <-chan time.Time
	if wait > 0 {
		changed = make(chan struct{}, 1)
		stop, err := l.host.Watch(related(want.Key), changed)
		if err != nil {
			return nil, err
		}
		defer stop()
		t := time.NewTimer(wait)
		defer t.Stop()
		deadline = t.C
	}
	for {
		lease, err := l.take(ctx, who, want, ttl)
		if err == nil {
			r := &api.LeaseReply{Lease: &lease}
			if wait > 0 {
				r.WaitedMS = float64(time.Since(start).Microseconds()) / 1000
			}
			return r, nil
		}
		if wait == 0 || model.CodeOf(err) != model.CodeLeaseHeld {
			return nil, err
		}
		if waiting == nil {
			waiting = l.waiters.add(who.Name, want.Key)
			defer waiting()
		}
		select {
		case <-changed:
		case <-deadline:
			return nil, model.AsError(err).With("waited_ms", time.Since(start).Milliseconds())
		case <-ctx.Done():
			return nil, model.AsError(err).With("waited_ms", time.Since(start).Milliseconds())
		}
	}
}

// take gives want to who when nothing another identity holds stands in the way; a lease who
// holds already is renewed (its connection stays the one it was acquired on).
func (l *Leases) take(ctx context.Context, who api.Identity, want api.Lease, ttl time.Duration) (api.Lease, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h := l.blockerLocked(who, want.Key); h != nil {
		return api.Lease{}, leaseHeld(h.Lease)
	}
	if h := l.held[want.Key]; h != nil {
		h.Action = "" // acquired now: no physical action's end releases it
		return l.renewLocked(ctx, h, ttl)
	}
	h, err := l.createLocked(ctx, who, want, ttl, "")
	if err != nil {
		return api.Lease{}, err
	}
	return h.Lease, nil
}

// createLocked writes a new lease of who on want's key, free in the store. action names the
// physical action of an input lease taken for its length ("" for an acquire).
func (l *Leases) createLocked(ctx context.Context, who api.Identity, want api.Lease, ttl time.Duration, action string) (*held, error) {
	now := time.Now()
	lease := want
	lease.Holder, lease.Conn, lease.Action = who.Name, who.Conn, action
	lease.Acquired, lease.Expires, lease.TTLMS = now, now.Add(ttl), ttl.Milliseconds()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	rev, err := l.host.Put(wctx, lease.Key, lease, 0, ttl)
	if err != nil {
		return nil, storeError(err)
	}
	h := &held{Lease: lease, rev: rev}
	l.held[lease.Key] = h
	l.armLocked(h)
	l.host.Publish(api.LeaseEvent{Event: api.LeaseAcquired, Lease: lease, Time: now})
	select {
	case l.kick <- struct{}{}:
	default:
	}
	return h, nil
}

// renew gives who's lease at key another ttl.
func (l *Leases) renew(ctx context.Context, who api.Identity, key string, ttl time.Duration) (*api.LeaseReply, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h, err := l.ownLocked(who, key, "renew")
	if err != nil {
		return nil, err
	}
	lease, err := l.renewLocked(ctx, h, ttl)
	if err != nil {
		return nil, err
	}
	return &api.LeaseReply{Lease: &lease}, nil
}

// renewLocked writes h again with ttl from now, by compare-and-set on its revision and with
// the TTL on the new entry (KeyValue.Update would drop it: nats.go#1994).
func (l *Leases) renewLocked(ctx context.Context, h *held, ttl time.Duration) (api.Lease, error) {
	lease := h.Lease
	now := time.Now()
	lease.Expires, lease.TTLMS = now.Add(ttl), ttl.Milliseconds()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	rev, err := l.host.Put(wctx, lease.Key, lease, h.rev, ttl)
	if err != nil {
		return api.Lease{}, storeError(err)
	}
	h.Lease, h.rev = lease, rev
	l.armLocked(h)
	l.host.Publish(api.LeaseEvent{Event: api.LeaseRenewed, Lease: lease, Time: now})
	return lease, nil
}

// release ends who's lease at key.
func (l *Leases) release(_ context.Context, who api.Identity, key string) (*api.LeaseReply, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h, err := l.ownLocked(who, key, "release")
	if err != nil {
		return nil, err
	}
	l.endLocked(h, api.LeaseReleased)
	return &api.LeaseReply{Lease: &h.Lease}, nil
}

// ownLocked is who's lease at key; LEASE_HELD when another identity holds it.
func (l *Leases) ownLocked(who api.Identity, key, verb string) (*held, error) {
	h := l.held[key]
	if h != nil && l.endedLocked(h) {
		h = nil
	}
	if h == nil {
		return nil, model.Errorf(model.CodeBadRequest, "Acquire it (axbus lease acquire); see the leases with: axbus lease ls.",
			"no lease on %s to %s: it expired or was released, or was never taken", key, verb)
	}
	if h.Holder != who.Name {
		return nil, leaseHeld(h.Lease)
	}
	return h, nil
}

// Check refuses (LEASE_HELD) an action of who on app, in window ("": the app as a whole, as a
// key combination is): another identity holds the app's lease, or that window's (any of its
// windows' for the app as a whole). The daemon's own identity is never refused.
func (l *Leases) Check(who api.Identity, app model.App, window string) error {
	if who == api.Daemon {
		return nil
	}
	key := api.AppLeaseKey(app.Name, app.PID)
	if window != "" {
		key = api.WindowLeaseKey(app.Name, app.PID, window)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if h := l.blockerLocked(who, key); h != nil {
		return leaseHeld(h.Lease)
	}
	return nil
}

// HoldInput takes the input lease for who for the length of a physical action (action on
// app), unless who holds it already; release gives it back. LEASE_HELD when another identity
// holds it. The daemon's own identity needs none.
func (l *Leases) HoldInput(ctx context.Context, who api.Identity, action string, app model.AppRef) (release func(), err error) {
	if who == api.Daemon {
		return func() {}, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.blockerLocked(who, api.InputLeaseKey); b != nil {
		return nil, leaseHeld(b.Lease)
	}
	h := l.held[api.InputLeaseKey] // who's own, acquired or taken by another of its actions
	if h == nil {
		want := api.Lease{Key: api.InputLeaseKey, What: api.LeaseInput, App: &app}
		if h, err = l.createLocked(ctx, who, want, inputHoldTTL, action); err != nil {
			return nil, err
		}
	}
	h.holds++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		h.holds--
		if h.holds == 0 && h.Action != "" && l.held[h.Key] == h {
			l.endLocked(h, api.LeaseReleased)
		}
	}, nil
}

// List is the leases in force, by key.
func (l *Leases) List() []api.Lease {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]api.Lease, 0, len(l.held))
	for _, h := range l.held {
		if !l.endedLocked(h) {
			out = append(out, h.Lease)
		}
	}
	slices.SortFunc(out, func(a, b api.Lease) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// HeldBy is the keys of the leases the identity called name holds.
func (l *Leases) HeldBy(name string) []string {
	var keys []string
	for _, lease := range l.List() {
		if lease.Holder == name {
			keys = append(keys, lease.Key)
		}
	}
	return keys
}

// list is the ls operation: every lease, or those of the request's target (its own, an app's
// windows').
func (l *Leases) list(ctx context.Context, r api.LeaseRequest) (*api.LeaseReply, error) {
	all := l.List()
	if r.App == "" && r.PID == 0 && !r.Input && r.Key == "" {
		return &api.LeaseReply{Leases: all}, nil
	}
	key := r.Key
	if key == "" {
		want, err := l.target(ctx, r)
		if err != nil {
			return nil, err
		}
		key = want.Key
	}
	out := []api.Lease{}
	for _, lease := range all {
		if lease.Key == key || strings.HasPrefix(lease.Key, key+".") {
			out = append(out, lease)
		}
	}
	return &api.LeaseReply{Leases: out}, nil
}

// blockerLocked is a lease of another identity than who that stands in the way of key: key's
// own, its app's (for a window), its windows' (for an app). Leases found over (past their
// expiry, their holder's connection gone) are ended on the way.
func (l *Leases) blockerLocked(who api.Identity, key string) *held {
	for k, h := range l.held {
		if h.Holder == who.Name || !(k == key || strings.HasPrefix(k, key+".") || strings.HasPrefix(key, k+".")) {
			continue
		}
		if !l.endedLocked(h) {
			return h
		}
	}
	return nil
}

// related are the filters of the keys whose changes may free key: its own, its windows' (an
// app's), its app's (a window's).
func related(key string) []string {
	out := []string{key, key + ".>"}
	if strings.HasPrefix(key, "app.") {
		if parts := strings.Split(key, "."); len(parts) == 4 {
			out = append(out, strings.Join(parts[:3], "."))
		}
	}
	return out
}

// leaseHeld is the refusal that l stands in the way: who holds it and until when.
func leaseHeld(l api.Lease) *model.Error {
	what := l.Key
	switch {
	case l.What == api.LeaseInput:
		what = "the host's physical input"
	case l.Window != nil && l.App != nil:
		what = "window " + strconv.Quote(l.Window.Title) + " of " + l.App.Name + " (pid " + strconv.Itoa(l.App.PID) + ")"
	case l.App != nil:
		what = l.App.Name + " (pid " + strconv.Itoa(l.App.PID) + ")"
	}
	return model.Errorf(model.CodeLeaseHeld, waitSuggestion(l),
		"%s holds the lease on %s until %s", l.Holder, what, l.Expires.UTC().Format("15:04:05.000Z")).
		With("holder", l.Holder).With("expires", l.Expires).With("key", l.Key).With("what", l.What)
}

// waitSuggestion says how to wait for l.
func waitSuggestion(l api.Lease) string {
	flag := "--input"
	if l.App != nil {
		flag = "--pid " + strconv.Itoa(l.App.PID)
		if l.Window != nil {
			flag += " --window " + strconv.Quote(l.Window.ID)
		}
	}
	return "Wait until " + l.Holder + " is done: axbus lease acquire " + flag + " --wait 30s (it ends at its expiry, on release, or when " +
		l.Holder + "'s connection goes); or act elsewhere."
}

// storeError is a failed write to the lease store.
func storeError(err error) *model.Error {
	return model.Errorf(model.CodeUnavailable, "Retry in a moment.", "the lease store: %v", err).Wrap(err)
}
