package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testkit"
)

// TestHostileAdmissionOwnerNotLockedOut is issue 33's attack 1: six monitors and two agents,
// each on its own connection, hold their limit of long waits (a condition that never holds,
// 60 s) and ask for one more, which is BUSY. Meanwhile the owner's status and apps answer at
// once (p50 under 50 ms), and status counts every attacker at its limit. Once the attackers
// disconnect, their waits are cancelled and their slots given back within a second (status
// counts them cancelled, none in flight), long before the waits' timeout.
func TestHostileAdmissionOwnerNotLockedOut(t *testing.T) {
	const monitors, agents = 6, 2
	const waitTimeout = 60 * time.Second
	const p50Bound, maxBound = 50 * time.Millisecond, 500 * time.Millisecond // the 50 ms; a loaded 2-core machine's tail
	s := startSecDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	type attacker struct {
		who     secIdent
		nc      *nats.Conn
		limit   int
		replies atomic.Int64 // replies to its waits at its limit: none, they never end while it is there
	}
	var attackers []*attacker
	for i := range monitors + agents {
		role := api.RoleMonitor
		if i >= monitors {
			role = api.RoleAgent
		}
		who := s.addUser(t, fmt.Sprintf("hostile%d", i), role)
		attackers = append(attackers, &attacker{who: who, limit: api.MaxInFlightOf(role)})
	}
	body := fmt.Appendf(nil, `{"app":"Notes","expr":"text:\"never\"","timeout_ms":%d}`, waitTimeout.Milliseconds())
	total := 0
	for _, a := range attackers {
		a.nc = s.connectAs(t, a.who)
		inbox := nats.NewInbox()
		sub, err := a.nc.Subscribe(inbox+".*", func(m *nats.Msg) {
			a.replies.Add(1)
			t.Errorf("%s: a reply to a wait at its limit: %s %v %s", a.who.name, m.Subject, m.Header, m.Data)
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := sub.SetPendingLimits(-1, -1); err != nil {
			t.Fatal(err)
		}
		for i := range a.limit {
			if err := a.nc.PublishRequest(s.Subjects.Endpoint("wait"), inbox+"."+strconv.Itoa(i), body); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.nc.FlushWithContext(ctx); err != nil {
			t.Fatal(err)
		}
		total += a.limit
	}
	// Every attacker at its limit, as the owner's status counts them.
	owner := s.connectAs(t, s.owner)
	admission := func() *api.AdmissionStatus {
		t.Helper()
		m, err := owner.RequestWithContext(ctx, s.Subjects.Endpoint("status"), []byte("{}"))
		if err != nil || m.Header.Get(api.HeaderCode) != "" {
			t.Fatalf("the owner's status: %v %v", err, m)
		}
		var st api.StatusReply
		if err := json.Unmarshal(m.Data, &st); err != nil || st.Admission == nil {
			t.Fatalf("the owner's status: %v %s", err, m.Data)
		}
		return st.Admission
	}
	atLimit := func(st *api.AdmissionStatus) bool {
		for _, a := range attackers {
			if !slices.ContainsFunc(st.Identities, func(id api.IdentityInFlight) bool {
				return id.Name == a.who.name && id.InFlight == a.limit
			}) {
				return false
			}
		}
		return true
	}
	var st *api.AdmissionStatus
	end, _ := ctx.Deadline()
	if !testkit.Within(time.Until(end), func() bool { st = admission(); return atLimit(st) }) {
		t.Fatalf("the attackers never all reached their limits: %+v", st)
	}
	t.Logf("%d attackers (%d monitors x %d, %d agents x %d) hold %d waits; in flight %d, shared %d of %d (%d kept for admins)",
		len(attackers), monitors, api.MaxInFlightMonitor, agents, api.MaxInFlightAgent, total, st.InFlight, st.Shared,
		st.Capacity-st.AdminReserve, st.AdminReserve)
	if st.Shared < total || st.Shared > st.Capacity-st.AdminReserve {
		t.Errorf("status counts %d shared slots taken, want at least the attackers' %d and at most %d", st.Shared, total, st.Capacity-st.AdminReserve)
	}

	// One more wait of each attacker is BUSY, with a suggestion.
	for _, a := range attackers {
		m, err := a.nc.RequestWithContext(ctx, s.Subjects.Endpoint("wait"), body)
		if err != nil {
			t.Fatalf("%s's wait past its limit: %v", a.who.name, err)
		}
		var b api.ErrorBody
		if err := json.Unmarshal(m.Data, &b); err != nil || b.Error == nil || b.Error.Code != model.CodeBusy || b.Error.Suggestion == "" {
			t.Fatalf("%s's wait past its limit: %v %s, want BUSY with a suggestion", a.who.name, err, m.Data)
		}
	}

	// The owner's status and apps answer at once throughout.
	var took []time.Duration
	pace := time.NewTicker(20 * time.Millisecond)
	for i := range 100 {
		<-pace.C
		endpoint := []string{"status", "apps"}[i%2]
		start := time.Now()
		m, err := owner.RequestWithContext(ctx, s.Subjects.Endpoint(endpoint), []byte("{}"))
		took = append(took, time.Since(start))
		if err != nil || m.Header.Get(api.HeaderCode) != "" {
			t.Fatalf("the owner's %s #%d under attack: %v %v", endpoint, i, err, m)
		}
		if endpoint == "apps" {
			s.realApps(t, "the owner's apps under attack", m.Data)
		}
	}
	pace.Stop()
	slices.Sort(took)
	p50, p99, worst := took[len(took)/2], took[len(took)*99/100-1], took[len(took)-1]
	t.Logf("the owner's 100 status and apps under attack: p50 %v, p99 %v, max %v", p50, p99, worst)
	if p50 > p50Bound || worst > maxBound {
		t.Errorf("the owner's status and apps under attack: p50 %v (want under %v), max %v (want under %v)", p50, p50Bound, worst, maxBound)
	}

	// The attackers go: their waits are cancelled and their slots free at once.
	before := st.Cancelled
	gone := time.Now()
	for _, a := range attackers {
		a.nc.Close()
	}
	if !testkit.Within(10*time.Second, func() bool { st = admission(); return st.Shared == 0 && st.Cancelled-before >= uint64(total) }) {
		t.Fatalf("10 s after the attackers disconnected: %+v", st)
	}
	freed := time.Since(gone)
	t.Logf("the attackers' %d waits cancelled %v after they disconnected: in flight %d, shared %d, cancelled %d",
		total, freed.Round(time.Millisecond), st.InFlight, st.Shared, st.Cancelled-before)
	if freed > 2*time.Second {
		t.Errorf("the attackers' slots freed %v after they disconnected, want within 2 s (the sweep is every 50 ms)", freed)
	}
	for _, a := range attackers {
		if n := a.replies.Load(); n != 0 {
			t.Errorf("%s got %d replies to its waits at its limit, want none", a.who.name, n)
		}
	}
	s.unharmed(t)
}
