package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/observer/sim"
	"github.com/nats-io/nats.go"
)

// TestSnapDiffsThroughNATS: the daemon polls the 4,000-element window of the simulated "large"
// desktop once someone subscribes; the subscriber of ax.<host>.snap.<app> gets its reset, then
// for one changed label a diff naming that element alone, and nothing while nothing changes.
func TestSnapDiffsThroughNATS(t *testing.T) {
	td := startSimDaemon(t, daemon.Config{Desktop: "large", SnapInterval: 100 * time.Millisecond, SnapResync: 0})
	d := td.Daemon
	nc := td.Connect(t)
	sub, err := nc.SubscribeSync(d.Subjects.Snap("Ledger"))
	if err != nil {
		t.Fatal(err)
	}
	_ = nc.Flush()
	next := func(within time.Duration) (*api.SnapEnvelope, []byte) {
		msg, err := sub.NextMsg(within)
		if err == nats.ErrTimeout {
			return nil, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		testdaemon.MustMatch(t, "snap", msg.Data)
		var env api.SnapEnvelope
		if err := json.Unmarshal(msg.Data, &env); err != nil {
			t.Fatal(err)
		}
		return &env, msg.Data
	}
	// Nobody subscribed before: the subscription is what starts the polling, with a reset.
	reset, _ := next(5 * time.Second)
	if reset == nil || reset.Kind != "reset" || reset.Elements != 4000 {
		t.Fatalf("first diff: %+v", reset)
	}
	if env, raw := next(500 * time.Millisecond); env != nil {
		t.Fatalf("an unchanged window published %s", raw)
	}
	desk := d.Backend.(*sim.Desktop)
	if err := desk.SetTitle(601, "import", "Import CSV"); err != nil {
		t.Fatal(err)
	}
	env, raw := next(5 * time.Second)
	if env == nil || env.Kind != "events" || len(env.Changed) != 1 || len(env.Added)+len(env.Removed) != 0 ||
		env.Changed[0].Name != "Import CSV" || env.Changed[0].Changes["name"].Old != "Import" || env.Reads > 5 {
		t.Fatalf("diff for one renamed button: %s", raw)
	}
}
