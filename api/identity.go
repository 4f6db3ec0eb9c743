package api

import (
	"context"

	"github.com/axbus/axbus/model"
)

// The roles of client identities, each with the rights of the one before it and more.
const (
	// RoleMonitor observes: events, snapshot diffs, the event history, the observing endpoints
	// (the accessibility tree; not the screen's pixels: Pixels).
	RoleMonitor = "monitor"
	// RoleAgent acts too: the action endpoints and leases, and sees the screen's pixels.
	RoleAgent = "agent"
	// RoleAdmin manages too: identities (creds) and the event stream.
	RoleAdmin = "admin"
)

// Roles lists the roles, fewest rights first.
var Roles = []string{RoleMonitor, RoleAgent, RoleAdmin}

// Identity is who sent a request, as the server authenticated it: never a field the client
// writes.
type Identity struct {
	Name string `json:"name"`
	Role string `json:"role"`
	// Conn is the server's id of the connection the request came on (0: the daemon's own):
	// what a lease is tied to.
	Conn uint64 `json:"conn,omitempty"`
}

// Daemon is the identity of the daemon's own connection.
var Daemon = Identity{Name: "daemon", Role: RoleAdmin}

// May says whether role may call endpoints of kind k.
func (k Kind) May(role string) bool {
	switch k {
	case Observe:
		return role == RoleMonitor || role == RoleAgent || role == RoleAdmin
	case Act, Pixels:
		return role == RoleAgent || role == RoleAdmin
	case Manage:
		return role == RoleAdmin
	}
	return false
}

type identityKey struct{}

// WithIdentity is ctx carrying who asked, also as the observer's owner of what the request
// makes (snapshots: an admin may use every identity's).
func WithIdentity(ctx context.Context, id Identity) context.Context {
	ctx = model.WithOwner(ctx, model.Owner{Name: id.Name, All: id.Role == RoleAdmin})
	return context.WithValue(ctx, identityKey{}, id)
}

// IdentityOf is who asked, as WithIdentity put it; the daemon itself when no one did.
func IdentityOf(ctx context.Context) Identity {
	if id, ok := ctx.Value(identityKey{}).(Identity); ok {
		return id
	}
	return Daemon
}
