package bus_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"
	"go.uber.org/goleak"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/fixtures"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/observer/sim"
)

// startServer starts an embedded NATS server that the test shuts down, and checks at the very
// end that nothing of the test still runs.
func startServer(t *testing.T) *embedded.Server {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	s, err := embedded.Start(embedded.WithStateDir(t.TempDir()), embedded.WithListen("127.0.0.1:0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return s
}

func receive(t *testing.T, sub *nats.Subscription) api.SnapEnvelope {
	t.Helper()
	msg, err := sub.NextMsg(5 * time.Second)
	if err != nil {
		t.Fatalf("no diff on %s: %v", sub.Subject, err)
	}
	var env api.SnapEnvelope
	if err := json.Unmarshal(msg.Data, &env); err != nil {
		t.Fatalf("diff %s: %v", msg.Data, err)
	}
	return env
}

// Each app instance has its own sequence on its app's subject; gone ends it.
func TestSnapPublisherSequencesPerApp(t *testing.T) {
	s := startServer(t)
	subj := api.NewSubjects("", "Test.Host")
	ledger, notes := testkit.Subscribed(t, s.Conn(), subj.Snap("Ledger")), testkit.Subscribed(t, s.Conn(), "ax.test_host.snap.notes")
	pub := bus.NewSnapPublisher(s.Conn(), subj, "b1", 0, nil)
	defer pub.Close()

	ledgerApp := model.AppRef{Name: "Ledger", PID: 601, Generation: 1}
	for _, d := range []model.Diff{
		{Kind: model.DiffReset, App: ledgerApp},
		{Kind: model.DiffReset, App: model.AppRef{Name: "Notes", PID: 501, Generation: 2}},
		{Kind: model.DiffEvents, App: ledgerApp},
		{Kind: model.DiffGone, App: ledgerApp},
		{Kind: model.DiffReset, App: ledgerApp},
	} {
		if !pub.Offer(d) {
			t.Fatal("Offer refused a diff with an empty queue")
		}
	}
	for i, want := range []struct {
		kind model.DiffKind
		seq  uint64
	}{{model.DiffReset, 1}, {model.DiffEvents, 2}, {model.DiffGone, 3}, {model.DiffReset, 1}} {
		env := receive(t, ledger)
		if env.Kind != want.kind || env.Seq != want.seq || env.Host != "test_host" || env.Boot != "b1" || env.Gap != 0 {
			t.Errorf("Ledger diff %d: %s seq %d host %s boot %s gap %d; want %s seq %d", i, env.Kind, env.Seq, env.Host, env.Boot, env.Gap, want.kind, want.seq)
		}
	}
	if env := receive(t, notes); env.Seq != 1 || env.App.Name != "Notes" {
		t.Errorf("Notes diff seq %d of %s, want its own sequence from 1", env.Seq, env.App.Name)
	}
}

// Offer never blocks: a flood of diffs is published or dropped, each counted, and the gaps the
// envelopes report never exceed the drops.
func TestSnapPublisherDropsInsteadOfBlocking(t *testing.T) {
	s := startServer(t)
	subj := api.NewSubjects("", "h")
	sub := testkit.Subscribed(t, s.Conn(), subj.Snap("Ledger"))
	pub := bus.NewSnapPublisher(s.Conn(), subj, "b1", 1, nil)
	const n = 2000
	start := time.Now()
	for range n {
		pub.Offer(model.Diff{Kind: model.DiffEvents, App: model.AppRef{Name: "Ledger", PID: 601, Generation: 1}})
	}
	offering := time.Since(start)
	pub.Close()
	st := pub.Stats()
	if st.Published+st.Dropped != n {
		t.Fatalf("published %d + dropped %d, want %d", st.Published, st.Dropped, n)
	}
	var gaps uint64
	for seq := uint64(1); seq <= st.Published; seq++ {
		env := receive(t, sub)
		if env.Seq != seq {
			t.Fatalf("seq %d, want %d", env.Seq, seq)
		}
		gaps += env.Gap
	}
	if gaps > st.Dropped {
		t.Errorf("envelopes report %d lost, but %d were dropped", gaps, st.Dropped)
	}
	t.Logf("%d diffs offered in %v: %d published, %d dropped", n, offering, st.Published, st.Dropped)
}

// End to end: the poller over the 4,000-element window publishes through the snapshot
// publisher, and a NATS subscriber on ax.<host>.snap.<app> receives the reset, then a diff
// naming the one element changed.
func TestSnapDiffsReachASubscriber(t *testing.T) {
	s := startServer(t)
	data, _ := fixtures.Desktop("large")
	spec, err := sim.Parse("large.json", data)
	if err != nil {
		t.Fatal(err)
	}
	desk, err := sim.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = desk.Close() }()
	subj := api.NewSubjects("", "desk")
	sub := testkit.Subscribed(t, s.Conn(), "ax.desk.snap.ledger")
	pub := bus.NewSnapPublisher(s.Conn(), subj, "b1", 0, nil)
	defer pub.Close()
	poller := live.NewPoller(observer.New(desk), pub.Offer, live.PollInterval(20*time.Millisecond))
	if err := poller.Start(); err != nil {
		t.Fatal(err)
	}
	defer poller.Stop()

	reset := receive(t, sub)
	if reset.Kind != model.DiffReset || len(reset.Added) != 4000 || reset.Seq != 1 || reset.Host != "desk" {
		t.Fatalf("first diff %s seq %d with %d added", reset.Kind, reset.Seq, len(reset.Added))
	}
	if err := desk.SetTitle(601, "filter", "Filter…"); err != nil {
		t.Fatal(err)
	}
	env := receive(t, sub) // found through its event, or by a resync if one came first
	if len(env.Changed) != 1 || env.Changed[0].Name != "Filter…" || env.Seq != 2 {
		t.Fatalf("diff %s seq %d changed %+v", env.Kind, env.Seq, env.Changed)
	}
	if fc := env.Changed[0].Changes["name"]; fc.Old != "Filter" || fc.New != "Filter…" {
		t.Errorf("name change %v -> %v", fc.Old, fc.New)
	}
}

// SnapListeners counts the server's subscriptions on an app's subject: with none the poller
// reads nothing; a subscription makes the next cycle publish the whole window as a reset; gone,
// the next cycle drops the copy and reads nothing again.
func TestSnapListenersStartAndStopPolling(t *testing.T) {
	s := startServer(t)
	desk, err := sim.Fixture("large")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = desk.Close() }()
	subj := api.NewSubjects("", "desk")
	pub := bus.NewSnapPublisher(s.Conn(), subj, "b1", 0, nil)
	defer pub.Close()
	poller := live.NewPoller(observer.New(desk), pub.Offer, live.PollInterval(time.Hour),
		live.PollWhen(bus.SnapListeners(subj, s.Interest)))
	if err := poller.Start(); err != nil {
		t.Fatal(err)
	}
	defer poller.Stop()
	ledger := func() model.AppPollStats {
		poller.PollNow(context.Background())
		for _, st := range poller.Stats() {
			if st.App.PID == 601 {
				return st
			}
		}
		t.Fatal("the poller does not know Ledger")
		return model.AppPollStats{}
	}
	if st := ledger(); st.Polling || st.Reads != 0 {
		t.Fatalf("polled with no subscriber: %+v", st)
	}
	nc, _, err := embedded.Connect(s.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	sub := testkit.Subscribed(t, nc, "ax.desk.snap.*")
	if st := ledger(); !st.Polling || st.Listeners != 1 || st.FullReads != 1 {
		t.Fatalf("with a subscriber: %+v", st)
	}
	if env := receive(t, sub); env.Kind != model.DiffReset || len(env.Added) != 4000 {
		t.Fatalf("first diff %s with %d added", env.Kind, len(env.Added))
	}
	_ = sub.Unsubscribe()
	_ = nc.Flush()
	st := ledger()
	if st.Polling || st.Elements != 0 {
		t.Fatalf("after the subscriber left: %+v", st)
	}
	if again := ledger(); again.Reads != st.Reads {
		t.Errorf("a cycle with no subscriber read %d elements", again.Reads-st.Reads)
	}
}
