package handlers

import (
	"context"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
)

// Waiting is the wait endpoint's handler over serve (waiters.Engine.Serve): the requester's
// snapshots alone may be named, "armed" goes as an interim reply once the wait listens (to a
// requester that asked), and the outcome with its listing's span in api.HeaderListing, the
// listing's snapshot made the requester's.
func (o *Observing) Waiting(serve func(ctx context.Context, r api.WaitRequest, armed func()) (*api.WaitResult, error)) func(context.Context, api.WaitRequest) (any, error) {
	return func(ctx context.Context, r api.WaitRequest) (any, error) {
		if err := o.ownSnapshots(ctx, &r); err != nil {
			return nil, err
		}
		res, err := serve(ctx, r, func() { bus.SendInterim(ctx, api.Armed{Armed: true}) })
		if err != nil {
			return nil, err
		}
		o.claimListing(ctx, res.Snapshot)
		data, span, err := res.Encode()
		if err != nil || span == "" {
			return &bus.Encoded{Data: data}, err
		}
		return &bus.Encoded{Data: data, Header: nats.Header{api.HeaderListing: []string{span}}}, nil
	}
}

// Acting is the handler of an action endpoint over do (commands.Engine.Do): its expect may name
// the requester's snapshots alone, the expect's listing is made the requester's, and the reply
// says who acted.
func (o *Observing) Acting(action string, do func(ctx context.Context, action string, r api.ActionRequest) (*api.ActionReply, error)) func(context.Context, api.ActionRequest) (any, error) {
	return func(ctx context.Context, r api.ActionRequest) (any, error) {
		if err := o.ownSnapshots(ctx, r.Expect); err != nil {
			return nil, err
		}
		reply, err := do(ctx, action, r)
		if err != nil {
			return nil, err
		}
		if reply.Expect != nil {
			o.claimListing(ctx, reply.Expect.Snapshot)
		}
		who := api.IdentityOf(ctx)
		reply.Agent = &who
		return reply, nil
	}
}

// ownSnapshots refuses a wait (or an expect) whose snapshot or scope names a snapshot of
// another identity's: its element ids would read that snapshot.
func (o *Observing) ownSnapshots(ctx context.Context, r *api.WaitRequest) error {
	if r == nil {
		return nil
	}
	ids := []string{r.Snapshot}
	if scope, err := optionalScope(r.Scope); err == nil && scope != nil {
		ids = append(ids, scope.Snapshot)
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		if _, err := o.obs.Store().GetFor(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// claimListing makes the snapshot of a reply's listing, which the daemon's wait watcher made,
// the requester's: its quota keeps it, and only it (and admins) may use it.
func (o *Observing) claimListing(ctx context.Context, l *api.Listing) {
	if l == nil {
		return
	}
	if insp, err := l.Inspection(); err == nil && insp != nil && insp.SnapshotID != "" {
		o.obs.Store().Claim(insp.SnapshotID, api.IdentityOf(ctx).Name)
	}
}
