package main

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/observer/sim"
)

// benchHostile: issue 33's admission, measured. On the simulated demo desktop, 10 normal agents
// each do an ordinary request every 20 ms in turn (status, apps, a short wait on Notes met by a
// label the sim adds once it listens), for a phase alone and a phase beside 10 hostile
// identities (5 monitors, 5 agents) at their in-flight limits: each holds its limit less
// hostileFlood of long waits on Notes that never hold, and floods status from hostileFlood
// requests at a time, back to back (what an identity can legally saturate). The normal agents'
// p50/p99 side by side; the target is their p99 beside the hostile load under 50 ms. Then the
// hostile identities disconnect, and the time until status counts none of their requests in
// flight. AXBENCH_SHORT=1 runs 2 s phases instead of 7 s.
func benchHostile() ([]row, error) {
	const normals, hostiles, every = 10, 10, 20 * time.Millisecond
	const target = 50 * time.Millisecond
	phase := 7 * time.Second
	if os.Getenv("AXBENCH_SHORT") != "" {
		phase = 2 * time.Second
	}
	d, stop, err := startWithClient(simDemo)
	if err != nil {
		return nil, err
	}
	defer stop()
	desk := d.Backend.(*sim.Desktop)
	var agents []*normalAgent
	for i := range normals {
		c, err := connectAs(d.Daemon, fmt.Sprintf("normal%d", i), api.RoleAgent)
		if err != nil {
			return nil, err
		}
		defer c.Conn().Close()
		agents = append(agents, &normalAgent{id: i, client: c, desk: desk})
	}
	measure := func(phase time.Duration) (reqs, waits []time.Duration, errs int, first string) {
		end := time.Now().Add(phase)
		var wg sync.WaitGroup
		for _, a := range agents {
			a.reqs, a.waits, a.errors, a.firstErr = nil, nil, 0, ""
			wg.Add(1)
			go func() { defer wg.Done(); a.run(every, end) }()
		}
		wg.Wait()
		for _, a := range agents {
			reqs = append(reqs, a.reqs...)
			waits = append(waits, a.waits...)
			errs += a.errors
			first = cmp.Or(first, a.firstErr)
		}
		return reqs, waits, errs, first
	}
	measure(time.Second) // warm-up: the apps' copies, the agents' connections
	aloneReqs, aloneWaits, aloneErrs, aloneFirst := measure(phase)

	// The hostile identities take their limits.
	var hs []*hostileIdentity
	held := 0
	for i := range hostiles {
		role := api.RoleMonitor
		if i >= hostiles/2 {
			role = api.RoleAgent
		}
		c, err := connectAs(d.Daemon, fmt.Sprintf("hostile%d", i), role)
		if err != nil {
			return nil, err
		}
		defer c.Conn().Close()
		h := &hostileIdentity{nc: c.Conn(), waits: api.MaxInFlightOf(role) - hostileFlood}
		if err := h.holdWaits(d.Subjects.Endpoint("wait")); err != nil {
			return nil, err
		}
		held += h.waits
		hs = append(hs, h)
	}
	ctx := context.Background()
	settle := time.Now().Add(30 * time.Second)
	for { // every hostile wait listening (their starts are paced: api.RequestRate)
		armed := int64(0)
		for _, h := range hs {
			armed += h.armed.Load()
		}
		if armed == int64(held) {
			break
		}
		if time.Now().After(settle) {
			return nil, fmt.Errorf("%d of the hostile identities' %d waits listen after 30 s", armed, held)
		}
		time.Sleep(20 * time.Millisecond)
	}
	floodCtx, stopFlood := context.WithCancel(ctx)
	var flooding sync.WaitGroup
	for _, h := range hs {
		h.flood(floodCtx, &flooding, d.Subjects.Endpoint("status"))
	}
	floodStart := time.Now()
	hostileReqs, hostileWaits, hostileErrs, hostileFirst := measure(phase)
	stopFlood()
	flooding.Wait()
	floodSecs := time.Since(floodStart).Seconds()
	var served, busy, other int64
	for _, h := range hs {
		served, busy, other = served+h.served.Load(), busy+h.busy.Load(), other+h.other.Load()
	}

	// The hostile identities go: their requests end at once.
	gone := time.Now()
	for _, h := range hs {
		h.nc.Close()
	}
	var freed time.Duration
	for {
		st, err := d.client.Status(ctx)
		if err != nil {
			return nil, err
		}
		if st.Admission != nil && st.Admission.Shared == 0 {
			freed = time.Since(gone)
			break
		}
		if time.Since(gone) > 30*time.Second {
			return nil, fmt.Errorf("30 s after the hostile identities went, %+v", st.Admission)
		}
		time.Sleep(5 * time.Millisecond)
	}

	all := func(reqs, waits []time.Duration) []time.Duration { return append(slices.Clone(reqs), waits...) }
	p99 := percentile(all(hostileReqs, hostileWaits), 99)
	errNote := func(n int, first string) string {
		if n == 0 {
			return "no errors"
		}
		return fmt.Sprintf("%d errors; the first: %s", n, first)
	}
	load := fmt.Sprintf("%d hostile identities (5 monitors x %d, 5 agents x %d in flight): %d long waits on Notes held, status flooded %d at a time each",
		hostiles, api.MaxInFlightMonitor, api.MaxInFlightAgent, held, hostileFlood)
	return []row{
		{"hostile", "normal agents: status and apps p50 / p99, alone; beside the hostile load",
			p50p99(aloneReqs) + "; " + p50p99(hostileReqs),
			fmt.Sprintf("%d agents, one request each every %v, %v a phase; %d; %d requests; %s; %s",
				normals, every, phase, len(aloneReqs), len(hostileReqs), errNote(aloneErrs, aloneFirst), errNote(hostileErrs, hostileFirst)), "", ""},
		{"hostile", "normal agents: a wait met by a change on the sim, change -> reply p50 / p99, alone; beside the hostile load",
			p50p99(aloneWaits) + "; " + p50p99(hostileWaits), fmt.Sprintf("%d; %d waits on Notes", len(aloneWaits), len(hostileWaits)), "", ""},
		{"hostile", "normal agents: p99 of all their requests beside the hostile load", us(p99), load,
			"p99 < " + us(target), verdict(p99 < target && hostileErrs == 0)},
		{"hostile", "hostile status flood: served / BUSY per second", fmt.Sprintf("%.0f / %.0f", float64(served)/floodSecs, float64(busy)/floodSecs),
			fmt.Sprintf("%d other replies (target 0)", other), "", ""},
		{"hostile", "hostile identities disconnect -> none of their requests in flight (status)", us(freed),
			fmt.Sprintf("%d waits cancelled", held), "", ""},
	}, nil
}

// hostileFlood is how many status requests a hostile identity keeps in flight at once, beside
// its long waits.
const hostileFlood = 32

// hostileIdentity is one identity at its limit: long waits and a status flood.
type hostileIdentity struct {
	nc                  *nats.Conn
	waits               int
	served, busy, other atomic.Int64
	armed               atomic.Int64 // its waits listening
}

// holdWaits publishes h.waits waits that never hold (60 s), asking for their interim replies,
// which it counts in h.armed.
func (h *hostileIdentity) holdWaits(subject string) error {
	inbox := nats.NewInbox()
	sub, err := h.nc.Subscribe(inbox+".*", func(m *nats.Msg) {
		if m.Header.Get(api.HeaderInterim) != "" {
			h.armed.Add(1)
		}
	})
	if err != nil {
		return err
	}
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		return err
	}
	body := []byte(`{"app":"Notes","expr":"text:\"never\"","timeout_ms":60000}`)
	for i := range h.waits {
		m := &nats.Msg{Subject: subject, Reply: fmt.Sprintf("%s.%d", inbox, i), Data: body, Header: nats.Header{api.HeaderInterim: []string{"armed"}}}
		if err := h.nc.PublishMsg(m); err != nil {
			return err
		}
	}
	return h.nc.Flush()
}

// flood keeps hostileFlood status requests in flight until ctx ends, counting the replies.
func (h *hostileIdentity) flood(ctx context.Context, wg *sync.WaitGroup, subject string) {
	for range hostileFlood {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				m, err := h.nc.RequestWithContext(rctx, subject, []byte("{}"))
				cancel()
				switch {
				case err != nil:
					if ctx.Err() == nil {
						h.other.Add(1)
					}
				case m.Header.Get(api.HeaderCode) == "":
					h.served.Add(1)
				case m.Header.Get(api.HeaderCode) == "BUSY":
					h.busy.Add(1)
				default:
					h.other.Add(1)
				}
			}
		}()
	}
}

// normalAgent is one ordinary agent: status, apps and a short wait in turn.
type normalAgent struct {
	id     int
	client *client.Client
	desk   *sim.Desktop
	seq    int

	reqs, waits []time.Duration
	errors      int
	firstErr    string
}

// run does one request every `every` until end, in turn: status, apps, a wait.
func (a *normalAgent) run(every time.Duration, end time.Time) {
	next := time.Now().Add(rand.N(every)) // the agents out of step
	for turn := 0; time.Now().Before(end); turn++ {
		time.Sleep(time.Until(next))
		next = next.Add(every)
		if now := time.Now(); next.Before(now) {
			next = now
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var err error
		switch turn % 3 {
		case 0:
			start := time.Now()
			_, err = a.client.Status(ctx)
			a.reqs = append(a.reqs, time.Since(start))
		case 1:
			start := time.Now()
			_, err = a.client.Apps(ctx)
			a.reqs = append(a.reqs, time.Since(start))
		default:
			err = a.wait(ctx)
		}
		cancel()
		if err != nil {
			a.errors++
			if a.firstErr == "" {
				a.firstErr = err.Error()
			}
		}
	}
}

// wait waits for a label of its own on Notes that the sim adds once the wait listens, and
// counts the time from the change to the reply.
func (a *normalAgent) wait(ctx context.Context) error {
	a.seq++
	id := fmt.Sprintf("normal%d-%d", a.id, a.seq)
	var changed time.Time
	r, err := a.client.WaitAfter(ctx, api.WaitRequest{Expr: fmt.Sprintf("text=%q", id), AppTarget: api.AppTarget{PID: 501}, TimeoutMS: 4000},
		func(context.Context) error {
			v := sim.Text(id)
			err := a.desk.AddNode(501, "toolbar", sim.NodeSpec{ID: id, Role: "AXStaticText", Value: &v, Frame: []float64{300, 84, 60, 20}})
			changed = time.Now()
			return err
		})
	if err != nil {
		return err
	}
	took := time.Since(changed)
	if r.Outcome != api.WaitMet {
		return fmt.Errorf("wait for %q: %s", id, r.Outcome)
	}
	a.waits = append(a.waits, took)
	return a.desk.RemoveNode(501, id)
}
