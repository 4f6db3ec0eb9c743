package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/observer/sim"
)

// benchAgents: many agents on one desktop. On the simulated demo desktop (Notes, Mail, and a
// third app launched as a copy of Notes, "Drafts"), 10 agent identities, each with its own nkey
// and its own TCP connection, issue about 100 requests/s each for 20 s, contending for the
// leases of the 3 apps: acquire (2 s TTL, no wait), one mutating action (toggle a checkbox, or
// select a row in Mail), release. A refusal with LEASE_HELD is a correct answer, so it counts as
// served; timeouts and other errors count apart. A monitor identity follows the events and the
// action records: from the records' start times and elapsed times it counts the moments two
// agents' done actions overlapped on one app (the leases must make it 0), and it compares the
// events it saw with the count of those status says were published (no loss).
// AXBENCH_SHORT=1 runs 3 s instead of 20 s.
func benchAgents() ([]row, error) {
	const agents, every = 10, 10 * time.Millisecond
	length := 20 * time.Second
	if os.Getenv("AXBENCH_SHORT") != "" {
		length = 3 * time.Second
	}
	d, _, stop, err := startDaemon()
	if err != nil {
		return nil, err
	}
	defer stop()
	drafts, ok := d.Backend.(*sim.Desktop).AppSpec("Notes")
	if !ok {
		return nil, fmt.Errorf("the demo desktop has no Notes")
	}
	drafts.Name, drafts.PID, drafts.BundleID = "Drafts", 0, "com.example.drafts"
	if _, err := d.Backend.(*sim.Desktop).Launch(drafts); err != nil {
		return nil, err
	}
	apps := []string{"Notes", "Mail", "Drafts"}

	mon, err := connectAs(d, "monitor", api.RoleMonitor)
	if err != nil {
		return nil, err
	}
	defer mon.Conn().Close()
	w := &watcher{}
	for subject, handle := range map[string]nats.MsgHandler{d.Subjects.AllEvents(): w.event, d.Subjects.AllActions(): w.record} {
		if _, err := mon.Conn().Subscribe(subject, handle); err != nil {
			return nil, err
		}
	}
	if err := mon.Conn().Flush(); err != nil {
		return nil, err
	}

	var ags []*benchAgent
	for i := range agents {
		c, err := connectAs(d, fmt.Sprintf("agent%d", i), api.RoleAgent)
		if err != nil {
			return nil, err
		}
		defer c.Conn().Close()
		a := &benchAgent{client: c, acts: map[string]benchAction{}}
		for _, app := range apps {
			if a.acts[app], err = mutation(c, app); err != nil {
				return nil, err
			}
		}
		ags = append(ags, a)
	}

	ctx := context.Background()
	before, err := mon.Status(ctx)
	if err != nil {
		return nil, err
	}
	w.from(before.Events.Published)
	end := time.Now().Add(length)
	var wg sync.WaitGroup
	for _, a := range ags {
		wg.Add(1)
		go func() { defer wg.Done(); a.run(apps, every, end) }()
	}
	wg.Wait()
	after, err := mon.Status(ctx)
	if err != nil {
		return nil, err
	}
	var total, refused, errs int
	var lat []time.Duration
	var firstErr string
	for _, a := range ags {
		total += a.served + a.errors
		refused += a.refused
		errs += a.errors
		lat = append(lat, a.latencies...)
		firstErr = cmp.Or(firstErr, a.firstErr)
	}
	published := after.Events.Published - before.Events.Published
	seen := w.await(after.Events.Published, total, 3*time.Second) // a record for every request
	errNote := verdict(errs == 0)
	if firstErr != "" {
		errNote += "; the first: " + firstErr
	}
	records, done, overlaps := w.overlaps()
	secs := length.Seconds()
	note := fmt.Sprintf("%d agents x ~%d requests/s for %.0f s on Notes, Mail and Drafts (a copy of Notes launched: the demo has 2 apps)",
		agents, time.Second/every, secs)
	return []row{
		{"agents", "requests served (all agents, per second)", fmt.Sprintf("%d (%.0f/s)", total-errs, float64(total-errs)/secs), note, "", ""},
		{"agents", "errors, timeouts (target 0)", fmt.Sprint(errs), errNote, "", ""},
		{"agents", "refused with LEASE_HELD (served)", fmt.Sprintf("%d (%.0f%%)", refused, 100*float64(refused)/float64(max(total, 1))),
			"acquire with no wait, 2 s TTL; then one action and a release", "", ""},
		{"agents", "request latency p50 / p99, all requests", p50p99(lat), fmt.Sprintf("%d requests: acquire, action, release", len(lat)), "", ""},
		{"agents", "overlapping actions on one app (target 0)", fmt.Sprint(overlaps),
			fmt.Sprintf("%s; %d actions done, from %d action records the monitor saw (%d requests sent)", verdict(overlaps == 0), done, records, total), "", ""},
		{"agents", "events: published (status) / seen by the monitor (target: no loss)", fmt.Sprintf("%d / %d", published, seen),
			fmt.Sprintf("%s; dropped %d (target 0: %s)", verdict(seen == published), after.Events.Dropped, verdict(after.Events.Dropped == 0)), "", ""},
	}, nil
}

// verdict is a row's: whether this run met its target.
func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

// connectAs adds an identity of role to d with a new nkey and connects as it over TCP.
func connectAs(d *daemon.Daemon, name, role string) (*client.Client, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, err
	}
	pub, _ := kp.PublicKey()
	if err := d.Server.AddUser(embedded.User{Name: name, Role: role, Nkey: pub}); err != nil {
		return nil, err
	}
	nc, err := nats.Connect(d.Server.ClientURL(), nats.Nkey(pub, kp.Sign), nats.Name(name))
	if err != nil {
		return nil, err
	}
	c, err := client.New(context.Background(), nc, client.WithHost(d.Subjects.Host))
	if err != nil {
		nc.Close()
	}
	return c, err
}

// benchAction is one mutating action on an element of an app's snapshot.
type benchAction struct {
	action string
	req    api.ActionRequest
}

// mutation inspects app once and picks what to change: its first checkbox (toggle), else its
// first row (select).
func mutation(c *client.Client, app string) (benchAction, error) {
	insp, err := c.Inspect(context.Background(), api.InspectRequest{AppTarget: api.AppTarget{App: app}})
	if err != nil {
		return benchAction{}, err
	}
	for _, pick := range []struct {
		role   model.Role
		action string
	}{{model.RoleCheckbox, "toggle"}, {model.RoleRow, "select"}} {
		for _, el := range insp.Elements {
			if el.Role == pick.role {
				return benchAction{pick.action, api.ActionRequest{Target: insp.SnapshotID + ":" + el.ID}}, nil
			}
		}
	}
	return benchAction{}, fmt.Errorf("%s has no checkbox or row to act on", app)
}

// benchAgent is one agent's connection, its actions by app and what its requests got.
type benchAgent struct {
	client *client.Client
	acts   map[string]benchAction

	next                    time.Time
	served, refused, errors int
	latencies               []time.Duration
	firstErr                string
}

// run loops until end: an app at random, acquire its lease, act, release; one request every
// `every` at most.
func (a *benchAgent) run(apps []string, every time.Duration, end time.Time) {
	a.next = time.Now().Add(rand.N(every)) // the agents out of step
	for time.Now().Before(end) {
		app := apps[rand.IntN(len(apps))]
		var l *api.LeaseReply
		if !a.call(every, func(ctx context.Context) (err error) {
			l, err = a.client.Lease(ctx, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: api.AppTarget{App: app}, TTLMS: 2000})
			return err
		}) {
			continue
		}
		act := a.acts[app]
		a.call(every, func(ctx context.Context) error { _, err := a.client.Act(ctx, act.action, act.req); return err })
		a.call(every, func(ctx context.Context) error {
			_, err := a.client.Lease(ctx, api.LeaseRequest{Op: api.LeaseRelease, Key: l.Lease.Key})
			return err
		})
	}
}

// call waits for the agent's next slot, times one request and counts what it got; it reports
// whether the request was done (not refused, no error).
func (a *benchAgent) call(every time.Duration, req func(context.Context) error) bool {
	time.Sleep(time.Until(a.next))
	a.next = a.next.Add(every)
	if behind := time.Now(); a.next.Before(behind) {
		a.next = behind // late: the next one at once, no burst to catch up
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	err := req(ctx)
	a.latencies = append(a.latencies, time.Since(start))
	switch {
	case err == nil:
		a.served++
		return true
	case model.CodeOf(err) == model.CodeLeaseHeld:
		a.served++
		a.refused++
	default:
		a.errors++
		if a.firstErr == "" {
			a.firstErr = err.Error()
		}
	}
	return false
}

// watcher is the monitor's count of events (by seq) and its copy of the action records.
type watcher struct {
	mu      sync.Mutex
	after   uint64 // events of seq above this are counted
	seqs    map[uint64]bool
	records []api.ActionRecord
}

func (w *watcher) from(seq uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.after, w.seqs = seq, map[uint64]bool{}
}

func (w *watcher) event(m *nats.Msg) {
	var env struct {
		Seq uint64 `json:"seq"`
	}
	if json.Unmarshal(m.Data, &env) != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seqs != nil && env.Seq > w.after {
		w.seqs[env.Seq] = true
	}
}

func (w *watcher) record(m *nats.Msg) {
	var r api.ActionRecord
	if json.Unmarshal(m.Data, &r) != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.records = append(w.records, r)
}

// await waits, up to patience, for every event up to seq upto and for n records; it returns
// how many events since from it saw. An event's seq is its place in the publisher's count,
// which status reports as published.
func (w *watcher) await(upto uint64, n int, patience time.Duration) uint64 {
	deadline := time.Now().Add(patience)
	for {
		w.mu.Lock()
		var seen uint64
		for s := range w.seqs {
			if s <= upto {
				seen++
			}
		}
		all := seen >= upto-w.after && len(w.records) >= n
		w.mu.Unlock()
		if all || time.Now().After(deadline) {
			return seen
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// overlaps counts, from the records, the done mutating actions (leases aside) that began on an
// app before another agent's done action on it ended; it returns the records seen and the done
// actions too.
func (w *watcher) overlaps() (records, done, overlaps int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	byApp := map[int][]api.ActionRecord{}
	for _, r := range w.records {
		if r.Done && r.Error == "" && r.Action != "lease" && r.App != nil {
			byApp[r.App.PID] = append(byApp[r.App.PID], r)
			done++
		}
	}
	end := func(r api.ActionRecord) time.Time {
		return r.Time.Add(time.Duration(r.ElapsedMS * float64(time.Millisecond)))
	}
	for _, rs := range byApp {
		slices.SortFunc(rs, func(a, b api.ActionRecord) int { return a.Time.Compare(b.Time) })
		var last api.ActionRecord // the action that ends last so far
		for i, r := range rs {
			if i > 0 && r.Time.Before(end(last)) && r.Agent.Name != last.Agent.Name {
				overlaps++
			}
			if i == 0 || end(r).After(end(last)) {
				last = r
			}
		}
	}
	return len(w.records), done, overlaps
}
