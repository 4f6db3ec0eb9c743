package bus

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// goneSweep is how often, while clients' requests are in flight, the service asks the server
// whether their connections are still there: the server tells nobody of a connection closing
// but its system account, and asking is an in-process lookup.
const goneSweep = 50 * time.Millisecond

// waitingSpan is how long an identity refused for want of shared slots counts as waiting for
// them: meanwhile it is one more sharer, so a slot given back goes to it rather than to an
// identity at its share.
const waitingSpan = 2 * time.Second

// admission decides which requests the service handles (api.MaxInFlight and its
// api.AdminReserve, each identity's api.MaxInFlightOf and api.FairShare) and cancels the
// requests of connections gone.
type admission struct {
	mu     sync.Mutex
	total  int // slots taken, all identities
	shared int // of them, by agents and monitors: at most api.MaxInFlight-api.AdminReserve
	byName map[string]*holder
	// sharers counts the identities in byName that are not admins.
	sharers int
	// waiting holds when each identity holding no slot was last refused one (waitingSpan).
	waiting map[string]time.Time
	byConn  map[uint64]map[*ticket]struct{}
	live    map[*ticket]struct{} // every request in flight

	// paced holds each paced identity's theoretical arrival time (a GCRA): its next request
	// starts no earlier than this less the burst's span.
	paced map[string]time.Time

	busy, unavailable, cancelled uint64
	// kick wakes the sweeper when a client's request is admitted.
	kick chan struct{}
}

// holder is one identity's requests in flight.
type holder struct {
	role string
	n    int
}

// ticket is one admitted request: its slot, given back once (its handler's end, or its
// connection's).
type ticket struct {
	name, role string
	conn       uint64
	cancel     context.CancelFunc
	given      bool
	// due is when the request's handler must have answered (its endpoint's deadline); zero
	// for none.
	due time.Time
}

// overdueAfter is how long past its deadline a request still in flight is stuck: its handler
// ignores its context. Status counts those; the service logs every goroutine's stack.
const overdueAfter = 30 * time.Second

func newAdmission() *admission {
	return &admission{byName: map[string]*holder{}, waiting: map[string]time.Time{}, paced: map[string]time.Time{}, byConn: map[uint64]map[*ticket]struct{}{}, live: map[*ticket]struct{}{}, kick: make(chan struct{}, 1)}
}

// privileged says whether role may take the admins' reserve.
func privileged(role string) bool { return role == api.RoleAdmin }

// take admits a request of who, whose handler's context cancel ends, or refuses it: BUSY past
// who's limit or its fair share, UNAVAILABLE when the slots its role may take are all taken.
func (a *admission) take(who api.Identity, cancel context.CancelFunc, due time.Time) (*ticket, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	h := a.byName[who.Name]
	n := 0
	if h != nil {
		n = h.n
	}
	limit := a.limitLocked(who.Role, who.Name)
	if n >= limit {
		a.busy++
		if limit < api.MaxInFlightOf(who.Role) {
			return nil, model.Errorf(model.CodeBusy, "Wait for some of your own requests to end (a wait ends when its condition holds or at its timeout; closing the connection ends all of them): the daemon is shared, and each identity holds at most its share while others are served.",
				"%s has %d requests in flight, its fair share while %d identities share the daemon's %d slots", who.Name, n, a.sharersLocked(who.Name), api.MaxInFlight-api.AdminReserve)
		}
		return nil, model.Errorf(model.CodeBusy, "Wait for some of your own requests to end (a wait ends when its condition holds or at its timeout; closing the connection ends all of them): everyone else is served meanwhile.",
			"%s has %d requests in flight already, the limit of a %s", who.Name, n, who.Role)
	}
	shares := !privileged(who.Role)
	if a.total >= api.MaxInFlight || shares && a.shared >= api.MaxInFlight-api.AdminReserve {
		a.unavailable++
		if shares {
			if h == nil {
				a.waiting[who.Name] = time.Now()
			}
			return nil, model.Errorf(model.CodeUnavailable, "Retry in a moment: slots free as requests end, and no identity may take more than its share of them meanwhile.",
				"the daemon is handling %d requests of agents and monitors already (%d more are kept for admins)", a.shared, api.AdminReserve)
		}
		return nil, model.Errorf(model.CodeUnavailable, "Retry in a moment: slots free as requests end.",
			"the daemon is handling %d requests already", a.total)
	}
	if h == nil {
		h = &holder{role: who.Role}
		a.byName[who.Name] = h
		if shares {
			a.sharers++
		}
		delete(a.waiting, who.Name)
	}
	h.n++
	a.total++
	if shares {
		a.shared++
	}
	t := &ticket{name: who.Name, role: who.Role, conn: who.Conn, cancel: cancel, due: due}
	a.live[t] = struct{}{}
	if who.Conn != 0 {
		if a.byConn[who.Conn] == nil {
			a.byConn[who.Conn] = map[*ticket]struct{}{}
		}
		a.byConn[who.Conn][t] = struct{}{}
		select {
		case a.kick <- struct{}{}:
		default:
		}
	}
	return t, nil
}

// limitLocked is the limit of identity name of role now: its role's, or its fair share of the
// shared slots when lower (an admin's is its role's: admins are trusted, and have the
// reserve).
func (a *admission) limitLocked(role, name string) int {
	limit := api.MaxInFlightOf(role)
	if privileged(role) {
		return limit
	}
	return min(limit, api.FairShare(a.sharersLocked(name)))
}

// sharersLocked counts the identities that share the shared slots: those holding some, those
// refused one lately (waiting), and name.
func (a *admission) sharersLocked(name string) int {
	n := a.sharers
	now := time.Now()
	for w, at := range a.waiting {
		if now.Sub(at) > waitingSpan {
			delete(a.waiting, w)
		} else if w != name {
			n++
		}
	}
	if a.byName[name] == nil {
		n++
	}
	return n
}

// pacedEvery is the interval between an identity's paced requests (api.RequestRate), and
// pacedBurst the span a burst of api.RequestBurst takes.
const (
	pacedEvery = time.Second / api.RequestRate
	pacedBurst = pacedEvery * (api.RequestBurst - 1)
)

// pace is how long a request of who waits before it starts (api.RequestRate, api.RequestBurst):
// 0 for admins.
func (a *admission) pace(who api.Identity) time.Duration {
	if privileged(who.Role) {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	if len(a.paced) > 4*len(a.byName)+64 { // the identities idle a while are back to a full burst
		for name, tat := range a.paced {
			if tat.Before(now) {
				delete(a.paced, name)
			}
		}
	}
	tat := a.paced[who.Name]
	if tat.Before(now) {
		tat = now
	}
	a.paced[who.Name] = tat.Add(pacedEvery)
	return max(tat.Sub(now)-pacedBurst, 0)
}

// give gives t's slot back, once.
func (a *admission) give(t *ticket) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.giveLocked(t)
}

func (a *admission) giveLocked(t *ticket) {
	if t.given {
		return
	}
	t.given = true
	delete(a.live, t)
	if h := a.byName[t.name]; h != nil {
		if h.n--; h.n <= 0 {
			delete(a.byName, t.name)
			if !privileged(h.role) {
				a.sharers--
			}
		}
	}
	a.total--
	if !privileged(t.role) {
		a.shared--
	}
	if byConn := a.byConn[t.conn]; byConn != nil {
		delete(byConn, t)
		if len(byConn) == 0 {
			delete(a.byConn, t.conn)
		}
	}
}

// conns lists the client connections with requests in flight.
func (a *admission) conns() []uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]uint64, 0, len(a.byConn))
	for c := range a.byConn {
		out = append(out, c)
	}
	return out
}

// gone cancels the requests of connection conn and gives their slots back at once: nobody is
// there to read their replies.
func (a *admission) gone(conn uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for t := range a.byConn[conn] {
		t.cancel()
		a.giveLocked(t)
		a.cancelled++
	}
}

// sweep cancels, every goneSweep while clients' requests are in flight, those whose connection
// connected says is gone; it returns when ctx ends.
func (a *admission) sweep(ctx context.Context, connected func(conn uint64) bool) {
	t := time.NewTicker(goneSweep)
	defer t.Stop()
	for {
		if len(a.conns()) == 0 {
			select {
			case <-a.kick:
			case <-ctx.Done():
				return
			}
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
		for _, c := range a.conns() {
			if !connected(c) {
				a.gone(c)
			}
		}
	}
}

// status is what status reports of admission.
func (a *admission) status() *api.AdmissionStatus {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := &api.AdmissionStatus{Capacity: api.MaxInFlight, AdminReserve: api.AdminReserve, InFlight: a.total, Shared: a.shared,
		Identities: make([]api.IdentityInFlight, 0, len(a.byName)), Busy: a.busy, Unavailable: a.unavailable, Cancelled: a.cancelled,
		Overdue: a.overdueLocked(time.Now())}
	for name, h := range a.byName {
		st.Identities = append(st.Identities, api.IdentityInFlight{Name: name, Role: h.role, InFlight: h.n, Limit: a.limitLocked(h.role, name)})
	}
	slices.SortFunc(st.Identities, func(x, y api.IdentityInFlight) int { return strings.Compare(x.Name, y.Name) })
	return st
}

// overdue counts the requests in flight past their deadline by overdueAfter or more.
func (a *admission) overdue(now time.Time) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.overdueLocked(now)
}

func (a *admission) overdueLocked(now time.Time) int {
	n := 0
	for t := range a.live {
		if !t.due.IsZero() && now.Sub(t.due) >= overdueAfter {
			n++
		}
	}
	return n
}
