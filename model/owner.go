package model

import (
	"context"
)

// Owner is who a request that makes or uses a snapshot comes from: the identity the server
// authenticated (the api package puts it in the request's context). All is an admin's right to
// see and use every identity's snapshots.
type Owner struct {
	Name string
	All  bool
}

type ownerKey struct{}

// WithOwner is ctx carrying the requester o.
func WithOwner(ctx context.Context, o Owner) context.Context {
	return context.WithValue(ctx, ownerKey{}, o)
}

// OwnerOf is the requester WithOwner put in ctx; ok is false for the daemon's own work (a
// wait's watcher, a sweep), which no identity asked for.
func OwnerOf(ctx context.Context) (o Owner, ok bool) {
	o, ok = ctx.Value(ownerKey{}).(Owner)
	return o, ok
}
