package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// TestAuditSurvivesAFloodOfEvents (issue 33, attack 4): a value of 1,040,000 characters makes an
// event of a few KiB (its length and digest in the envelope), and an agent's set_values that
// push the event history past its limit (1 MiB here, 512 MiB in a daemon) evict events only: the
// audit record of the owner's action, in a stream of its own, is still there, and tail --actions
// reads it.
func TestAuditSurvivesAFloodOfEvents(t *testing.T) {
	const historyBytes = 1 << 20
	d := startSimDaemon(t, daemon.Config{Desktop: "demo", EventStream: embedded.StreamLimits{MaxBytes: historyBytes, MaxAge: time.Hour}})
	info := d.Server.Info()
	s := &secDaemon{testDaemon: d, url: info.URL, stream: d.Subjects.StreamName(),
		owner: secIdent{name: embedded.OwnerName, role: api.RoleAdmin, seed: info.CredsFile}}
	s.agent = s.addUser(t, "agent1", api.RoleAgent)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	s.toggle(t, s.owner) // the owner's action, audited
	agent := testdaemon.Client(t, s.connectAs(t, s.agent))
	insp, err := agent.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{App: "Notes"}})
	if err != nil {
		t.Fatal(err)
	}
	var field string
	for _, e := range insp.Elements {
		if e.Role == model.RoleTextField {
			field = insp.SnapshotID + ":" + e.ID
			break
		}
	}
	if field == "" {
		t.Fatal("no text field in Notes")
	}
	long := strings.Repeat("x", 1_040_000)
	if _, err := agent.Act(ctx, "set_value", api.ActionRequest{Target: field, Value: long}); err != nil {
		t.Fatalf("set_value of %d characters: %v", len(long), err)
	}
	js := d.Server.JetStream()
	events, err := js.Stream(ctx, s.stream)
	if err != nil {
		t.Fatal(err)
	}
	var big api.Envelope
	var bigSize int
	testkit.Eventually(t, 10*time.Second, "the event of the long value", func() bool {
		m, err := events.GetLastMsgForSubject(ctx, d.Subjects.Event("Notes", string(model.EventValueChanged)))
		if err != nil || json.Unmarshal(m.Data, &big) != nil {
			return false
		}
		bigSize = len(m.Data)
		return len(big.Cut) > 0
	})
	if c := big.Cut[0]; c.Field != "element.value" || c.Length != len(long) || bigSize > 8<<10 {
		t.Fatalf("the event of a value of %d characters is %d bytes, cut %+v: want a few KiB and the whole's length", len(long), bigSize, big.Cut)
	}
	t.Logf("a set_value of %d characters: an event of %d bytes", len(long), bigSize)

	// The flood: set_values of 4,000 characters (events of about 4 KiB) until the history has
	// evicted the long value's event and more.
	mid := strings.Repeat("y", 4000)
	n := 0
	for {
		st, err := events.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.State.FirstSeq > big.Seq+10 { // the events stream counts from 1 as the envelopes do
			t.Logf("%d set_values: the event history keeps %d events, %d bytes, from %d to %d", n, st.State.Msgs, st.State.Bytes, st.State.FirstSeq, st.State.LastSeq)
			if st.State.Bytes > historyBytes {
				t.Errorf("the event history keeps %d bytes, past its %d", st.State.Bytes, historyBytes)
			}
			break
		}
		if n++; n > 2000 {
			t.Fatalf("2000 set_values did not fill a history of %d bytes: %+v", historyBytes, st.State)
		}
		v := mid + string(rune('a'+n%26))
		if _, err := agent.Act(ctx, "set_value", api.ActionRequest{Target: field, Value: v}); err != nil {
			t.Fatalf("set_value %d: %v", n, err)
		}
	}

	// status says what each stream evicted: events, not one audit record.
	if h := s.status(t, s.owner).History; h == nil || h.Events.Evicted < big.Seq || h.Events.MaxBytes != historyBytes ||
		h.Audit.Evicted != 0 || h.Audit.Messages < uint64(n) || h.Audit.Name != d.Subjects.AuditStreamName() {
		t.Errorf("status's history: %+v, want the events evicted through %d and the audit whole", h, big.Seq)
	} else {
		t.Logf("status: events %+v; audit %+v", h.Events, h.Audit)
	}

	// The owner's record is the audit stream's first, and tail --actions replays it.
	audit, err := js.Stream(ctx, d.Subjects.AuditStreamName())
	if err != nil {
		t.Fatal(err)
	}
	first, err := audit.GetMsg(ctx, 1)
	var rec api.ActionRecord
	if err != nil || json.Unmarshal(first.Data, &rec) != nil || rec.Agent.Name != embedded.OwnerName || rec.Action != "toggle" {
		t.Fatalf("the audit stream's first record: %v %+v, want the owner's toggle", err, rec)
	}
	owner := testdaemon.Client(t, s.connectAs(t, s.owner))
	tctx, tcancel := context.WithTimeout(ctx, 15*time.Second)
	defer tcancel()
	records, err := owner.TailActions(tctx, client.TailOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	r, ok := <-records
	if !ok || r.Agent.Name != embedded.OwnerName || r.Action != "toggle" {
		t.Fatalf("tail --actions starts with %+v (%v), want the owner's toggle", r, ok)
	}
}
