package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/commands"
)

// leaseBucket is the KV bucket of the host's leases, in the daemon's account: no client
// account imports its subjects, so only the daemon reads and writes it.
func leaseBucket(subj api.Subjects) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(subj.Host) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return "AXBUS_LEASES_" + b.String()
}

// leaseHost is commands.LeaseHost on the daemon's server: the KV bucket, the daemon's own
// connection for the events, and the server's list of connections.
type leaseHost struct {
	kv     jetstream.KeyValue
	js     jetstream.JetStream
	nc     *nats.Conn
	ns     *server.Server
	bucket string
	// subj names where lease changes go (api.Subjects.Lease): every role receives them; they are
	// not kept in the event stream: a lease is state, its history noise.
	subj api.Subjects
	log  *slog.Logger
}

// startLeases opens the lease bucket, clears what an earlier run left in it (its connections,
// to which those leases were tied, are gone) and keeps the leases of the daemon's apps.
func startLeases(ctx context.Context, d *Daemon) (*commands.Leases, error) {
	s := d.Server
	h := &leaseHost{js: s.JetStream(), nc: s.Conn(), ns: s.NATS(), bucket: leaseBucket(d.Subjects),
		subj: d.Subjects, log: d.log.With("part", "leases")}
	var err error
	if h.kv, err = h.js.KeyValue(ctx, h.bucket); err != nil {
		return nil, fmt.Errorf("lease bucket: %w", err)
	}
	st, err := h.js.Stream(ctx, "KV_"+h.bucket)
	if err == nil {
		err = st.Purge(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("lease bucket: %w", err)
	}
	return commands.NewLeases(d.Observer, h), nil
}

// storeTTL is the TTL of a lease's KV entry: the server keeps whole seconds, and the entry
// outlives the lease a little, so that the daemon ends it itself (and says so) at its expiry.
// The entry's TTL only matters to a daemon that stopped without ending it.
func storeTTL(ttl time.Duration) time.Duration {
	return (ttl + time.Second - 1).Truncate(time.Second) + time.Second
}

func (h *leaseHost) Put(ctx context.Context, key string, l api.Lease, rev uint64, ttl time.Duration) (uint64, error) {
	data, err := json.Marshal(l)
	if err != nil {
		return 0, err
	}
	if rev == 0 {
		n, err := h.kv.Create(ctx, key, data, jetstream.KeyTTL(storeTTL(ttl)))
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return n, err
		}
		// An entry the daemon no longer holds (its delete failed): the index is the truth.
		e, gerr := h.kv.Get(ctx, key)
		if gerr != nil {
			return 0, err
		}
		rev = e.Revision()
	}
	// A compare-and-set that keeps a TTL, which KeyValue.Update does not (nats.go#1994).
	ack, err := h.js.PublishMsg(ctx, &nats.Msg{Subject: "$KV." + h.bucket + "." + key, Data: data},
		jetstream.WithExpectLastSequencePerSubject(rev), jetstream.WithMsgTTL(storeTTL(ttl)))
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence {
		return 0, fmt.Errorf("%w: %v", commands.ErrLeaseConflict, err)
	}
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

func (h *leaseHost) Delete(ctx context.Context, key string, rev uint64) {
	// A purge marker of its own short life: keys carry pids, and markers must not pile up.
	err := h.kv.Purge(ctx, key, jetstream.LastRevision(rev), jetstream.PurgeTTL(time.Minute))
	if err != nil && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) { // mismatch: its TTL ended it already
		h.log.Warn("lease entry not removed (its TTL will)", "key", key, "err", err)
	}
}

func (h *leaseHost) Publish(ev api.LeaseEvent) {
	data, err := json.Marshal(ev)
	if err == nil {
		err = h.nc.Publish(h.subj.Lease(ev.Lease.Key), data)
	}
	if err != nil {
		h.log.Warn("lease change not published", "key", ev.Lease.Key, "event", ev.Event, "err", err)
	}
}

// Watch subscribes on the daemon's own connection, which publishes the changes too: the
// server handles a connection's messages in order, so a change published after Watch returns
// reaches it.
func (h *leaseHost) Watch(filters []string, changed chan<- struct{}) (func(), error) {
	var subs []*nats.Subscription
	stop := func() {
		for _, s := range subs {
			_ = s.Unsubscribe()
		}
	}
	for _, f := range filters {
		s, err := h.nc.Subscribe(h.subj.Lease(f), func(*nats.Msg) {
			select {
			case changed <- struct{}{}:
			default:
			}
		})
		if err != nil {
			stop()
			return nil, err
		}
		subs = append(subs, s)
	}
	return stop, nil
}

// Connected asks the server for connection conn among the connections of name's account (the
// identity's): an in-process lookup, no message.
func (h *leaseHost) Connected(name string, conn uint64) bool {
	cz, err := h.ns.Connz(&server.ConnzOptions{CID: conn, Account: name})
	if err != nil {
		return true // cannot tell: keep the lease until its TTL
	}
	return len(cz.Conns) > 0
}

var _ commands.LeaseHost = (*leaseHost)(nil)
