package bus

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// TestAdmissionReserveAndFairShare: agents fill every shared slot, each up to its fair share;
// the next agent is UNAVAILABLE, an agent past its share BUSY, while an admin still takes the
// whole reserve. A slot given back goes to the identity under its share, not to one at it; a
// connection gone gives all its slots back at once.
func TestAdmissionReserveAndFairShare(t *testing.T) {
	a := newAdmission()
	noop := context.CancelFunc(func() {})
	shared := api.MaxInFlight - api.AdminReserve
	n := (shared + api.MaxInFlightAgent - 1) / api.MaxInFlightAgent // agents enough to fill the shared slots
	var tickets [][]*ticket
	cancelled := make([]int, n)
	for i := range n {
		who := api.Identity{Name: fmt.Sprintf("agent%d", i), Role: api.RoleAgent, Conn: uint64(i + 1)}
		var mine []*ticket
		for {
			tk, err := a.take(who, func() { cancelled[i]++ }, time.Time{})
			if err != nil {
				break
			}
			mine = append(mine, tk)
		}
		tickets = append(tickets, mine)
	}
	st := a.status()
	if st.Shared != shared {
		t.Fatalf("%d agents took %d shared slots, want all %d: %+v", n, st.Shared, shared, st)
	}
	late := api.Identity{Name: "late", Role: api.RoleAgent, Conn: 999}
	if _, err := a.take(late, noop, time.Time{}); model.CodeOf(err) != model.CodeUnavailable {
		t.Fatalf("an agent when the shared slots are taken: %v, want UNAVAILABLE", err)
	}
	owner := api.Identity{Name: "owner", Role: api.RoleAdmin, Conn: 1000}
	for i := range api.AdminReserve {
		if _, err := a.take(owner, noop, time.Time{}); err != nil {
			t.Fatalf("the owner's request %d within the reserve: %v", i, err)
		}
	}
	// agent0 gives a slot back: it holds more than its share of n+1 sharers (late asking), so
	// it cannot take it again, and late can.
	first := api.Identity{Name: "agent0", Role: api.RoleAgent, Conn: 1}
	a.give(tickets[0][0])
	if _, err := a.take(first, noop, time.Time{}); model.CodeOf(err) != model.CodeBusy {
		t.Fatalf("agent0 past its fair share: %v, want BUSY", err)
	}
	if _, err := a.take(late, noop, time.Time{}); err != nil {
		t.Fatalf("late under its fair share, a slot free: %v", err)
	}
	// agent1's connection goes: all its slots come back at once, its requests cancelled.
	before := a.status().Shared
	a.gone(2)
	if st := a.status(); st.Shared != before-len(tickets[1]) || cancelled[1] != len(tickets[1]) || st.Cancelled != uint64(len(tickets[1])) {
		t.Fatalf("agent1 gone: shared %d (was %d, it held %d), %d cancelled, status %d", st.Shared, before, len(tickets[1]), cancelled[1], st.Cancelled)
	}
	if cancelled[0] != 0 || cancelled[2] != 0 {
		t.Fatalf("others' requests cancelled: %v", cancelled)
	}
	a.give(tickets[1][0]) // its handler's end, after: nothing more
	if st := a.status(); st.Shared != before-len(tickets[1]) {
		t.Fatalf("a slot given back twice: shared %d", st.Shared)
	}
}

// TestAdmissionPace: an agent's burst of api.RequestBurst starts at once, the next waits
// 1/api.RequestRate more each; an admin is never paced.
func TestAdmissionPace(t *testing.T) {
	a := newAdmission()
	agent := api.Identity{Name: "agent", Role: api.RoleAgent}
	for i := range api.RequestBurst {
		if d := a.pace(agent); d != 0 {
			t.Fatalf("request %d of the burst waits %v", i, d)
		}
	}
	for i := 1; i <= 3; i++ {
		if d, want := a.pace(agent), time.Duration(i)*pacedEvery; d < want-time.Millisecond || d > want {
			t.Fatalf("request %d past the burst waits %v, want %v", i, d, want)
		}
	}
	owner := api.Identity{Name: "owner", Role: api.RoleAdmin}
	for range 2 * api.RequestBurst {
		if d := a.pace(owner); d != 0 {
			t.Fatalf("the owner's request waits %v", d)
		}
	}
}

// A request in flight 30 s past its deadline is overdue: stuck; one within it, or with no
// deadline, is not; one given back is not counted any more.
func TestOverdueRequests(t *testing.T) {
	a := newAdmission()
	now := time.Now()
	who := api.Identity{Name: "alice", Role: api.RoleAgent, Conn: 1}
	stuck, err := a.take(who, func() {}, now.Add(-overdueAfter-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.take(who, func() {}, now.Add(-time.Second)); err != nil { // late, not stuck yet
		t.Fatal(err)
	}
	if _, err := a.take(who, func() {}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if n := a.overdue(now); n != 1 || a.status().Overdue != 1 {
		t.Fatalf("overdue %d, status %d; want 1", n, a.status().Overdue)
	}
	a.give(stuck)
	if n := a.overdue(now); n != 0 {
		t.Fatalf("overdue %d after its slot was given back", n)
	}
}
