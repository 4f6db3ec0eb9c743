package bus_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/cenkalti/backoff/v4"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/goleak"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/fixtures"
	"github.com/axbus/axbus/internal/handlers"
	"github.com/axbus/axbus/internal/pace"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/schemas"
)

// ops are what an audited service's endpoints do: apps and inspect are always served; the actions by act,
// agents by a presence of agents and leasesOf, when given.
type ops struct {
	act      func(ctx context.Context, action string, r api.ActionRequest) (*api.ActionReply, error)
	agents   func(context.Context) ([]api.Agent, error)
	leasesOf func(name string) []string
}

// auditedService is a service on the simulated demo desktop with ops, its actions recorded by
// an audit; its client is the daemon's own connection.
func auditedService(t *testing.T, o ops) (*client.Client, *bus.Audit, *nats.Conn) {
	t.Helper()
	subj := api.NewSubjects("", "h")
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
	s, err := embedded.Start(embedded.WithStateDir(t.TempDir()), embedded.WithListen("127.0.0.1:0"), embedded.WithJetStreamDomain(subj.Host),
		embedded.WithEventStream(subj.StreamName(), subj.AllEvents()),
		embedded.WithStream(subj.AuditStreamName(), embedded.AuditStreamLimits, subj.AllActions()))
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
	data, _ := fixtures.Desktop("demo")
	spec, err := sim.Parse("demo.json", data)
	if err != nil {
		t.Fatal(err)
	}
	desk, err := sim.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = desk.Close() })
	obs := observer.New(desk)
	audit := bus.NewAudit(s.Conn(), subj, "b1", obs.Store(), nil)
	see := handlers.NewObserving(obs, nil)
	routes := []bus.Route{bus.Handle("apps", see.Apps), bus.Handle("inspect", see.Inspect)}
	if o.act != nil {
		for _, action := range api.Actions {
			routes = append(routes, bus.Handle(action, see.Acting(action, o.act)))
		}
	}
	if o.agents != nil {
		presence := &handlers.Presence{Connected: o.agents, Audit: audit, LeasesOf: o.leasesOf}
		routes = append(routes, bus.Handle("agents", presence.Serve))
	}
	svc, err := bus.NewService(s.Conn(), bus.Config{Subjects: subj, Backend: desk.Platform(), Audit: audit})
	if err == nil {
		err = svc.Serve(routes)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Stop() })
	cl, err := client.New(context.Background(), s.Conn(), client.WithHost("h"))
	if err != nil {
		t.Fatal(err)
	}
	return cl, audit, s.Conn()
}

// TestAuditRecordsEveryAction: each call of an action endpoint, done or refused, is one record
// on its app's and action's subject, in order, with its own message id; values, texts and keys
// are named, never carried.
func TestAuditRecordsEveryAction(t *testing.T) {
	const secret = "correct-horse-battery-staple"
	cl, audit, nc := auditedService(t, ops{act: func(_ context.Context, action string, r api.ActionRequest) (*api.ActionReply, error) {
		if action == "toggle" {
			return nil, model.Errorf(model.CodeStaleRef, "Inspect again.", "the element is gone")
		}
		app := model.AppRef{Name: "Notes", PID: 501, Generation: 1}
		sc, _ := observer.ParseScope(r.Target)
		// A careless reply: the value echoed in its post state. The record must not copy it.
		value := r.Value + r.Text
		return &api.ActionReply{Action: action, App: app, Done: true, Step: "set_attribute", Delivered: true, Mechanism: "accessibility",
			Target:    &api.ActionTarget{Snapshot: sc.Snapshot, Element: sc.Element, Role: model.RolePassword, Name: "Password"},
			PostState: &api.PostState{Value: &value},
			Expect:    &api.WaitResult{Outcome: api.WaitMet, ElapsedMS: 12.5}}, nil
	}})
	ctx := context.Background()
	insp, err := cl.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{App: "Notes"}})
	if err != nil {
		t.Fatal(err)
	}
	var password, save string
	for _, el := range insp.Elements {
		switch el.Name {
		case "Password":
			password = insp.SnapshotID + ":" + el.ID
		case "Save":
			save = insp.SnapshotID + ":" + el.ID
		}
	}
	sub := testkit.Subscribed(t, nc, "ax.h.act.>")
	if _, err := cl.Act(ctx, "set_value", api.ActionRequest{Target: password, Value: secret}); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Act(ctx, "type", api.ActionRequest{Target: password, Text: secret}); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Act(ctx, "toggle", api.ActionRequest{Target: save}); model.AsError(err).Code != model.CodeStaleRef ||
		model.AsError(err).Recovery != model.RecoverInspect { // the reply says what to do, as data
		t.Fatalf("toggle: %v, want STALE_REF", err)
	}
	if _, err := cl.Act(ctx, "key", api.ActionRequest{Keys: secret, Policy: api.PolicyPhysical}); model.AsError(err).Code != model.CodeBadRequest {
		t.Fatalf("key with neither target nor app: %v, want the schema's BAD_REQUEST", err)
	}
	if _, err := cl.WebAccessibility(ctx, api.WebAccessibilityRequest{AppTarget: api.AppTarget{App: "Notes"}, On: true}); err == nil {
		t.Fatal("web_accessibility on the sim: want NOT_SUPPORTED")
	}
	if _, err := cl.Apps(ctx); err != nil { // an observation: no record
		t.Fatal(err)
	}

	type want struct {
		subject, action, op, err, role string
		given                          []string
		done                           bool
	}
	wants := []want{
		{"ax.h.act.notes.set_value.daemon", "set_value", "", "", "password_field", []string{"value"}, true},
		{"ax.h.act.notes.type.daemon", "type", "", "", "password_field", []string{"text"}, true},
		{"ax.h.act.notes.toggle.daemon", "toggle", "", "STALE_REF", "button", nil, false},
		{"ax.h.act._.key.daemon", "key", "", "BAD_REQUEST", "", []string{"keys"}, false},
		{"ax.h.act.notes.web_accessibility.daemon", "web_accessibility", "on", "NOT_SUPPORTED", "", nil, false},
	}
	var last api.ActionRecord
	for i, w := range wants {
		msg, err := sub.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatalf("record %d (%s): %v", i+1, w.action, err)
		}
		if strings.Contains(string(msg.Data), secret) || strings.Contains(string(msg.Data), "correct-horse") {
			t.Fatalf("record %s carries the secret: %s", w.action, msg.Data)
		}
		if err := schemas.Validate("act", msg.Data); err != nil {
			t.Fatalf("record %s: %v\n%s", w.action, err, msg.Data)
		}
		var r api.ActionRecord
		if err := json.Unmarshal(msg.Data, &r); err != nil {
			t.Fatal(err)
		}
		if msg.Subject != w.subject || r.Action != w.action || r.Op != w.op || string(r.Error) != w.err || r.Done != w.done ||
			strings.Join(r.Given, ",") != strings.Join(w.given, ",") {
			t.Errorf("record %d on %s: %s\nwant %+v", i+1, msg.Subject, msg.Data, w)
		}
		if r.Host != "h" || r.Boot != "b1" || r.Seq != uint64(i+1) || len(msg.Header) != 0 {
			t.Errorf("record %d: host %s boot %s seq %d headers %v", i+1, r.Host, r.Boot, r.Seq, msg.Header)
		}
		if r.Agent != api.Daemon || r.Time.IsZero() || r.ElapsedMS <= 0 {
			t.Errorf("record %d: agent %+v time %v elapsed %v", i+1, r.Agent, r.Time, r.ElapsedMS)
		}
		if w.role != "" && (r.Target == nil || string(r.Target.Role) != w.role || r.App == nil || r.App.PID != 501) {
			t.Errorf("record %d: target %+v app %+v, want a %s of Notes (from the reply or the snapshot)", i+1, r.Target, r.App, w.role)
		}
		if w.action == "set_value" && (r.Expect == nil || r.Expect.Outcome != api.WaitMet || r.Expect.ElapsedMS != 12.5 || r.Step != "set_attribute") {
			t.Errorf("set_value record lacks its expect or step: %s", msg.Data)
		}
		last = r
	}
	if extra, err := sub.NextMsg(200 * time.Millisecond); err == nil {
		t.Fatalf("a record too many: %s %s", extra.Subject, extra.Data)
	}
	if got, ok := audit.Last(api.Daemon.Name); !ok || got.Seq != last.Seq {
		t.Fatalf("last record of the daemon: %+v %v, want seq %d", got, ok, last.Seq)
	}
}

// The stream keeps the records: TailActions replays them, filtered by app and action.
func TestTailActionsReplaysHistory(t *testing.T) {
	cl, _, _ := auditedService(t, ops{act: func(_ context.Context, action string, r api.ActionRequest) (*api.ActionReply, error) {
		return &api.ActionReply{Action: action, App: model.AppRef{Name: "Notes", PID: 501}, Done: true}, nil
	}})
	ctx := context.Background()
	if _, err := cl.Act(ctx, "key", api.ActionRequest{AppTarget: api.AppTarget{App: "Notes"}, Keys: "ctrl+s"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Act(ctx, "focus", api.ActionRequest{Target: "s_000000000000:e1"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opt  client.TailOptions
		want []string
	}{
		{client.TailOptions{All: true}, []string{"key", "focus"}},
		{client.TailOptions{All: true, Type: "focus"}, []string{"focus"}},
		{client.TailOptions{All: true, App: "notes", Type: "key"}, []string{"key"}},
	} {
		tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		records, err := cl.TailActions(tctx, c.opt)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		var got []string
		for r := range records {
			got = append(got, r.Action)
			if len(got) == len(c.want) {
				cancel()
			}
		}
		cancel()
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("tail %+v: %v, want %v", c.opt, got, c.want)
		}
	}
}

// agents joins the server's view of who is connected with each identity's last action and its
// leases (when there is a lease store), by name; without a view it is not served.
func TestAgentsJoinsPresenceAuditAndLeases(t *testing.T) {
	since := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	o := ops{
		act: func(_ context.Context, action string, r api.ActionRequest) (*api.ActionReply, error) {
			return &api.ActionReply{Action: action, App: model.AppRef{Name: "Notes", PID: 501}, Done: true}, nil
		},
		agents: func(context.Context) ([]api.Agent, error) {
			return []api.Agent{
				{Name: "zed", Role: api.RoleMonitor, Since: since, Connections: []api.AgentConn{{ID: 7, Since: since}}},
				{Name: "daemon", Role: api.RoleAdmin, Since: since, Connections: []api.AgentConn{{ID: 3, Since: since}}},
			}, nil
		},
	}
	cl, _, _ := auditedService(t, o)
	ctx := context.Background()
	if _, err := cl.Act(ctx, "key", api.ActionRequest{AppTarget: api.AppTarget{App: "Notes"}, Keys: "ctrl+s"}); err != nil {
		t.Fatal(err)
	}
	r, err := cl.Agents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	if err := schemas.Validate("agents.reply", b); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if len(r.Agents) != 2 || r.Agents[0].Name != "daemon" || r.Agents[1].Name != "zed" {
		t.Fatalf("agents not by name: %s", b)
	}
	if l := r.Agents[0].LastAction; l == nil || l.Action != "key" || r.Agents[1].LastAction != nil || r.Agents[0].Leases != nil {
		t.Fatalf("last actions or leases: %s", b)
	}

	o.leasesOf = func(name string) []string {
		if name == "zed" {
			return []string{"app:notes"}
		}
		return nil
	}
	cl, _, _ = auditedService(t, o)
	if r, err = cl.Agents(ctx); err != nil || !slices.Equal(r.Agents[1].Leases, []string{"app:notes"}) || r.Agents[0].LastAction != nil {
		t.Fatalf("with a lease store (and a new audit): %+v %v", r, err)
	}

	cl, _, _ = auditedService(t, ops{})
	if _, err := cl.Agents(ctx); model.AsError(err) == nil || model.AsError(err).Code != model.CodeNotSupported {
		t.Fatalf("no presence: %v, want NOT_SUPPORTED", err)
	}
}

// A request the schema refuses is recorded too, within the record's schema and small, whatever
// it holds.
func TestAuditRecordOfAHostileRequestStaysSmall(t *testing.T) {
	cl, _, nc := auditedService(t, ops{act: func(context.Context, string, api.ActionRequest) (*api.ActionReply, error) {
		t.Error("a request the schema refuses reached the action")
		return nil, nil
	}})
	sub := testkit.Subscribed(t, nc, "ax.h.act.>")
	huge := strings.Repeat("Notes", 20000)
	body, _ := json.Marshal(map[string]any{"app": huge, "pid": -3, "policy": "sideways", "op": huge, "target": "s_1:ex", "value": "hunter2", "keys": nil})
	if err := cl.CallRaw(context.Background(), "click", body, nil); model.AsError(err) == nil || model.AsError(err).Code != model.CodeBadRequest {
		t.Fatalf("%v, want BAD_REQUEST", err)
	}
	msg, err := sub.NextMsg(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("act", msg.Data); err != nil || len(msg.Data) > 2048 || strings.Contains(string(msg.Data), "hunter2") {
		t.Fatalf("record of %d bytes (%v): %.600s", len(msg.Data), err, msg.Data)
	}
	var r api.ActionRecord
	_ = json.Unmarshal(msg.Data, &r)
	if r.Error != model.CodeBadRequest || !slices.Equal(r.Given, []string{"value"}) || r.Policy != "" || r.Op != "" || r.Target != nil {
		t.Fatalf("record %s", msg.Data)
	}
}

// One identity's actions, however many, never evict another's records: past
// api.AuditRecordsPerIdentity of its own, its own oldest go.
func TestAuditKeepsEachIdentitysOwn(t *testing.T) {
	_, audit, nc := auditedService(t, ops{})
	subj := api.NewSubjects("", "h")
	audit.Publish(api.ActionRecord{Agent: api.Identity{Name: "owner", Role: api.RoleAdmin}, Action: "click"})
	flood := api.AuditRecordsPerIdentity + 2*api.AuditTrimEvery
	for range flood {
		audit.Publish(api.ActionRecord{Agent: api.Identity{Name: "mallory", Role: api.RoleAgent}, Action: "toggle"})
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream, err := js.Stream(ctx, subj.AuditStreamName())
	if err != nil {
		t.Fatal(err)
	}
	count := func(identity string) uint64 {
		info, err := stream.Info(ctx, jetstream.WithSubjectFilter(subj.ActionsBy(identity)))
		if err != nil {
			t.Fatal(err)
		}
		var n uint64
		for _, c := range info.State.Subjects {
			n += c
		}
		return n
	}
	// Every record stored, then mallory's trimmed to its newest (the trim announces nothing: look).
	var n uint64
	err = backoff.Retry(func() error {
		info, err := stream.Info(ctx)
		if err != nil {
			return err
		}
		if n = count("mallory"); info.State.LastSeq < uint64(flood)+1 || n > api.AuditRecordsPerIdentity+api.AuditTrimEvery {
			return errors.New("not yet")
		}
		return nil
	}, pace.Every(ctx, 10*time.Millisecond, 0))
	if err != nil {
		t.Fatalf("mallory keeps %d records of %d, want at most %d", n, flood, api.AuditRecordsPerIdentity+api.AuditTrimEvery)
	}
	if n := count("owner"); n != 1 {
		t.Fatalf("the owner's record after mallory's %d: %d kept, want 1", flood, n)
	}
}
