package api

import (
	"strconv"
	"strings"
	"time"

	"github.com/axbus/axbus/model"
)

// Leases: an identity's exclusive hold on an app, one of its windows, or the host's physical
// input. While another identity holds one, an action on what it covers gets LEASE_HELD.
const (
	// DefaultLeaseTTL is a lease's life when the request says nothing; renewing starts it again.
	DefaultLeaseTTL = 30 * time.Second
	// MinLeaseTTL is the shortest: the KV bucket keeps TTLs in whole seconds.
	MinLeaseTTL = time.Second
	// MaxLeaseTTL is the longest a request may ask for.
	MaxLeaseTTL = 10 * time.Minute
	// MaxLeaseWait is the longest an acquire may wait for a lease to be free.
	MaxLeaseWait = MaxWaitTimeout
)

// The operations of the lease endpoint.
const (
	LeaseAcquire = "acquire"
	LeaseRenew   = "renew"
	LeaseRelease = "release"
	LeaseList    = "ls"
)

// What a lease covers (Lease.What).
const (
	LeaseApp    = "app"
	LeaseWindow = "window"
	LeaseInput  = "input"
)

// The changes of a lease, published on <prefix>.<host>.lease.<key> (LeaseEvent.Event).
const (
	LeaseAcquired   = "acquired"
	LeaseRenewed    = "renewed"
	LeaseReleased   = "released"
	LeaseExpired    = "expired"
	LeaseHolderGone = "holder_gone"
)

// InputLeaseKey is the key of the host-wide lease of physical input: one per desktop.
const InputLeaseKey = "input"

// AppLeaseKey is the key of the lease on one app instance: app.<name>.<pid>. The pid is in it
// because a lease holds an instance; a subscriber to one app's leases uses app.<name>.>.
func AppLeaseKey(name string, pid int) string {
	return "app." + leaseToken(name) + "." + strconv.Itoa(pid)
}

// WindowLeaseKey is the key of the lease on one window of an app: its app's key and the
// window's id. The app's lease covers its windows' and the other way round.
func WindowLeaseKey(name string, pid int, window string) string {
	return AppLeaseKey(name, pid) + "." + leaseToken(window)
}

// leaseToken is s as a KV key's and a subject's token: ASCII letters (lower case), digits, '-'
// and '_'; anything else '_'. Never empty.
func leaseToken(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// LeaseRequest acquires, renews or releases one lease (an app by AppTarget, one of its windows
// with Window, or the host's physical input with Input; renew and release may name its Key
// instead), or lists them (ls: all, or those of a target).
type LeaseRequest struct {
	Op string `json:"op"`
	AppTarget
	Window string `json:"window,omitempty"`
	Input  bool   `json:"input,omitempty"`
	Key    string `json:"key,omitempty"`
	// TTLMS is the lease's life from now (acquire, renew); 0: DefaultLeaseTTL.
	TTLMS int `json:"ttl_ms,omitempty"`
	// WaitMS is how long an acquire waits for a held lease to be free; 0: not at all.
	WaitMS int `json:"wait_ms,omitempty"`
}

// LeaseReply is the lease acquired, renewed or released, or the list.
type LeaseReply struct {
	Lease  *Lease  `json:"lease,omitzero"`
	Leases []Lease `json:"leases,omitzero"`
	// WaitedMS is how long an acquire waited for the lease to be free.
	WaitedMS float64 `json:"waited_ms,omitempty"`
}

// Lease is one lease, as its KV entry keeps it.
type Lease struct {
	Key  string `json:"key"`
	What string `json:"what"` // LeaseApp, LeaseWindow, LeaseInput
	// Holder is the identity that holds it; Conn the server's id of the connection it was
	// acquired on: when that connection goes, so does the lease.
	Holder   string           `json:"holder"`
	Conn     uint64           `json:"conn,omitempty"`
	Acquired time.Time        `json:"acquired"`
	Expires  time.Time        `json:"expires"`
	TTLMS    int64            `json:"ttl_ms"`
	App      *model.AppRef    `json:"app,omitempty"`
	Window   *model.WindowRef `json:"window,omitempty"`
	// Action is the physical action that took the input lease for its own length; empty for a
	// lease acquired.
	Action string `json:"action,omitempty"`
}

// LeaseEvent is one change of a lease, on <prefix>.<host>.lease.<key>.
type LeaseEvent struct {
	Event string    `json:"event"`
	Lease Lease     `json:"lease"`
	Time  time.Time `json:"time"`
}
