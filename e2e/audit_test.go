package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// auditSecret is what an agent sets the demo's password field to: no record may carry it.
const auditSecret = "hunter2-never-in-a-record"

// auditIdentity makes an identity of role on the daemon and connects as it, with its own nkey
// seed, as `axbus creds add` then a client would.
func (d *testDaemon) auditIdentity(t *testing.T, name, role string, opts ...nats.Option) *nats.Conn {
	t.Helper()
	nkey, err := nats.NkeyOptionFromSeed(d.AddIdentity(t, name, role))
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(d.Server.ClientURL(), append([]nats.Option{nkey, nats.Name(name + "-bot"), nats.Timeout(2 * time.Second)}, opts...)...)
	if err != nil {
		t.Fatalf("connect as %s: %v", name, err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// violations collects the permission violations the server reports to a connection.
type violations struct {
	mu   sync.Mutex
	errs []string
}

func (v *violations) handler(_ *nats.Conn, _ *nats.Subscription, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.errs = append(v.errs, err.Error())
}

func (v *violations) has(sub string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.ContainsFunc(v.errs, func(e string) bool { return strings.Contains(e, sub) })
}

// auditRun is the run TestAudit* share: alice and bob (agents) act on the demo's Notes, one
// after the other; mon (a monitor) watches. Each step names who did what.
type auditRun struct {
	d                *testDaemon
	alice, bob, mon  *nats.Conn
	aliceV, monV     *violations
	steps            []auditStep
	records          []api.ActionRecord
	raw              [][]byte
	subjects         []string
	title, password  string
	remember, saveID string
}

type auditStep struct {
	who    string
	conn   *nats.Conn
	action string
	req    api.ActionRequest
	code   model.Code // the error the action gets, "" for none
}

func startAuditRun(t *testing.T) *auditRun {
	t.Helper()
	r := &auditRun{d: startTestDaemon(t), aliceV: &violations{}, monV: &violations{}}
	r.alice = r.d.auditIdentity(t, "alice", api.RoleAgent, nats.ErrorHandler(r.aliceV.handler))
	r.bob = r.d.auditIdentity(t, "bob", api.RoleAgent)
	r.mon = r.d.auditIdentity(t, "mon", api.RoleMonitor, nats.ErrorHandler(r.monV.handler))

	// The monitor follows the action records with a plain subscription, as `nats sub` would.
	sub := testkit.Subscribed(t, r.mon, r.d.Subjects.AllActions())
	ctx := context.Background()
	insp, err := testdaemon.Client(t, r.alice).Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{App: "Notes"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, el := range insp.Elements {
		id := insp.SnapshotID + ":" + el.ID
		switch el.Name {
		case "Title":
			r.title = id
		case "Password":
			r.password = id
		case "Remember me":
			r.remember = id
		case "Save":
			r.saveID = id
		}
	}
	if r.title == "" || r.password == "" || r.remember == "" || r.saveID == "" {
		t.Fatalf("the demo lacks an element the run needs: %+v", r)
	}
	// bob acts on a snapshot of his own (another identity's is refused): the same tree, his id.
	own, err := testdaemon.Client(t, r.bob).Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{App: "Notes"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []*string{&r.password, &r.remember} {
		_, el, _ := strings.Cut(*id, ":")
		*id = own.SnapshotID + ":" + el
	}
	r.steps = []auditStep{
		{"alice", r.alice, "set_value", api.ActionRequest{Target: r.title, Value: "Plan"}, ""},
		{"bob", r.bob, "toggle", api.ActionRequest{Target: r.remember}, ""},
		{"bob", r.bob, "set_value", api.ActionRequest{Target: r.password, Value: auditSecret}, ""},
		{"alice", r.alice, "focus", api.ActionRequest{Target: "s_000000000000:e1"}, model.CodeSnapshotExpired},
		// Typing into it needs physical input: refused headless, and recorded all the same.
		{"bob", r.bob, "type", api.ActionRequest{Target: r.password, Text: auditSecret}, model.CodeActionFailed},
		{"alice", r.alice, "click", api.ActionRequest{Target: r.saveID, Expect: &api.WaitRequest{Expr: `text="Saved"`, TimeoutMS: 5000}}, ""},
	}
	for _, s := range r.steps {
		_, err := testdaemon.Client(t, s.conn).Act(ctx, s.action, s.req)
		if got := model.AsError(err); (got == nil) != (s.code == "") || (got != nil && got.Code != s.code) {
			t.Fatalf("%s's %s: %v, want %q", s.who, s.action, err, s.code)
		}
	}
	for range r.steps {
		msg, err := sub.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatalf("the monitor got %d records of %d: %v", len(r.records), len(r.steps), err)
		}
		var rec api.ActionRecord
		if err := json.Unmarshal(msg.Data, &rec); err != nil {
			t.Fatal(err)
		}
		r.records, r.raw, r.subjects = append(r.records, rec), append(r.raw, msg.Data), append(r.subjects, msg.Subject)
	}
	return r
}

// TestAuditNamesTheAuthenticatedAgent: every action of the run is one record that names the
// agent as the server authenticated it (its account and connection), and a client cannot
// add a record of its own.
func TestAuditNamesTheAuthenticatedAgent(t *testing.T) {
	r := startAuditRun(t)
	for i, s := range r.steps {
		rec := r.records[i]
		testdaemon.MustMatch(t, "act", r.raw[i])
		cid, err := s.conn.GetClientID()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Agent.Name != s.who || rec.Agent.Role != api.RoleAgent || rec.Agent.Conn != cid || rec.Action != s.action || rec.Error != s.code {
			t.Errorf("step %d (%s's %s, conn %d): record %s", i+1, s.who, s.action, cid, r.raw[i])
		}
		if want := "ax.testhost.act.notes." + s.action + "." + s.who; s.code == "" && r.subjects[i] != want {
			t.Errorf("step %d: subject %s, want %s", i+1, r.subjects[i], want)
		}
		if s.code == "" && (rec.Target == nil || rec.App == nil || rec.App.PID != 501 || !rec.Done) {
			t.Errorf("step %d: no target, app or done: %s", i+1, r.raw[i])
		}
	}
	if click := r.records[len(r.records)-1]; click.Expect == nil || click.Expect.Outcome != api.WaitMet || click.Expect.ElapsedMS <= 0 {
		t.Errorf("the click's record lacks its expect's outcome: %s", r.raw[len(r.raw)-1])
	}

	// A forged record, by an agent or a monitor: the server refuses the publish (the grants
	// deny it), and neither the subscribers nor the stream ever see it.
	owner := r.d.Connect(t)
	sub, err := owner.SubscribeSync(r.d.Subjects.AllActions())
	if err != nil {
		t.Fatal(err)
	}
	_ = owner.Flush()
	forged := []byte(`{"host":"testhost","boot":"x","seq":1,"time":"2026-01-01T00:00:00Z","agent":{"name":"bob","role":"agent"},"action":"click","done":true,"elapsed_ms":1}`)
	for _, nc := range []*nats.Conn{r.alice, r.mon} {
		if err := nc.PublishMsg(&nats.Msg{Subject: r.d.Subjects.Action("Notes", "click", "bob"), Data: forged,
			Header: nats.Header{nats.MsgIdHdr: []string{"testhost-x-act-1"}}}); err != nil {
			t.Fatal(err)
		}
		_ = nc.Flush()
	}
	testkit.Eventually(t, 5*time.Second, "the server's permission violations", func() bool {
		return r.aliceV.has("Permissions Violation for Publish") && r.monV.has("Permissions Violation for Publish")
	})
	if m, err := sub.NextMsg(300 * time.Millisecond); err == nil {
		t.Fatalf("a forged record reached a subscriber: %s", m.Data)
	}
	info, err := r.d.Server.JetStream().Stream(context.Background(), r.d.Subjects.AuditStreamName())
	if err != nil {
		t.Fatal(err)
	}
	kept, err := info.Info(context.Background(), jetstream.WithSubjectFilter(r.d.Subjects.AllActions()))
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, c := range kept.State.Subjects {
		n += c
	}
	if n != uint64(len(r.steps)) {
		t.Fatalf("the stream keeps %d action records, want the run's %d: %v", n, len(r.steps), kept.State.Subjects)
	}
}

// TestAuditNeverCarriesSecureText: the records of a set_value and a type into the password
// field say that a value was given, never the value, nor anything of it, nor its length.
func TestAuditNeverCarriesSecureText(t *testing.T) {
	r := startAuditRun(t)
	checked := 0
	for i, s := range r.steps {
		raw := string(r.raw[i])
		if strings.Contains(raw, auditSecret) || strings.Contains(raw, "hunter2") {
			t.Fatalf("the record of %s's %s carries the secret: %s", s.who, s.action, raw)
		}
		if s.req.Target != r.password {
			continue
		}
		checked++
		rec := r.records[i]
		want := map[string]string{"set_value": "value", "type": "text"}[s.action]
		if !slices.Equal(rec.Given, []string{want}) || rec.Target == nil || rec.Target.Role != model.RolePassword {
			t.Errorf("the password %s's record: %s", s.action, raw)
		}
		var fields map[string]any
		_ = json.Unmarshal(r.raw[i], &fields)
		for k := range fields {
			if k == "value" || k == "text" || k == "length" || k == "post_state" {
				t.Errorf("the password %s's record has a field %q: %s", s.action, k, raw)
			}
		}
	}
	if checked != 2 {
		t.Fatalf("%d records of the password field, want 2", checked)
	}
}

// TestTailActionsFromHistory: `axbus tail --actions --all` replays the run's records from the
// stream, as JSON when piped and one line each on a terminal, with no secret in either.
func TestTailActionsFromHistory(t *testing.T) {
	r := startAuditRun(t)
	out := tailUntil(t, r.d, len(r.steps), "tail", "--actions", "--all")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(r.steps) || strings.Contains(out, auditSecret) {
		t.Fatalf("tail --actions --all printed %d lines for %d actions:\n%s", len(lines), len(r.steps), out)
	}
	t.Logf("the first record: %s", lines[0])
	for i, l := range lines {
		testdaemon.MustMatch(t, "act", []byte(l))
		if rec := testdaemon.Decode[api.ActionRecord](t, l); rec.Agent.Name != r.steps[i].who || rec.Action != r.steps[i].action || rec.Seq != r.records[i].Seq {
			t.Errorf("line %d: %s, want %s's %s", i+1, l, r.steps[i].who, r.steps[i].action)
		}
	}

	// On a terminal, filtered to Notes's set_value: alice's title and bob's password.
	slave, screen := testdaemon.OpenTTY(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var errb bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"tail", "--actions", "--all", "notes.set_value", "--state-dir", r.d.Dir}, slave, &errb)
	}()
	var got []string
	for len(got) < 2 {
		select {
		case l := <-screen:
			got = append(got, l)
		case <-ctx.Done():
			t.Fatalf("the terminal showed %q", got)
		}
	}
	t.Logf("axbus tail --actions on a terminal:\n%s", strings.Join(got, "\n"))
	cancel()
	if c := <-code; c != 0 {
		t.Fatalf("tail --actions on a terminal: exit %d: %s", c, errb.String())
	}
	line := regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3}  (alice|bob) \(agent\)  Notes  set_value  s_[0-9a-f]{12}:e\d+ (text_field|password_field) "(Title|Password)"  done by [^(]+ \(accessibility\)  [0-9.]+[µm]?s$`)
	for i, who := range []string{"alice", "bob"} {
		if m := line.FindStringSubmatch(got[i]); m == nil || m[1] != who || strings.Contains(got[i], auditSecret) {
			t.Errorf("line %d: %q, want %s's set_value in the record's human form", i+1, got[i], who)
		}
	}
}

// TestAgentsListsWhoIsConnected: `axbus agents` lists both agents (and the monitor, which may
// ask too) with their role, connections and last action.
func TestAgentsListsWhoIsConnected(t *testing.T) {
	r := startAuditRun(t)
	out := must(t, r.d, "agents")
	testdaemon.MustMatch(t, "agents.reply", []byte(out))
	reply := testdaemon.Decode[api.AgentsReply](t, out)
	last := map[string]string{"alice": "click", "bob": "type"}
	for _, c := range []struct {
		name, role string
		conn       *nats.Conn
	}{{"alice", api.RoleAgent, r.alice}, {"bob", api.RoleAgent, r.bob}, {"mon", api.RoleMonitor, r.mon}} {
		i := slices.IndexFunc(reply.Agents, func(a api.Agent) bool { return a.Name == c.name })
		if i < 0 {
			t.Fatalf("agents lacks %s: %s", c.name, out)
		}
		a := reply.Agents[i]
		cid, _ := c.conn.GetClientID()
		if a.Role != c.role || len(a.Connections) != 1 || a.Connections[0].ID != cid || a.Connections[0].Name != c.name+"-bot" ||
			a.Since.IsZero() || a.Since.After(time.Now()) {
			t.Errorf("%s: %+v, want role %s and its one connection %d", c.name, a, c.role, cid)
		}
		if want := last[c.name]; (want == "") != (a.LastAction == nil) || (a.LastAction != nil && (a.LastAction.Action != want || a.LastAction.Agent.Name != c.name)) {
			t.Errorf("%s's last action: %+v, want %q", c.name, a.LastAction, want)
		}
	}
	if !slices.IsSortedFunc(reply.Agents, func(a, b api.Agent) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("agents not by name: %s", out)
	}

	// A monitor may ask (agents is an observing endpoint).
	seen, err := testdaemon.Client(t, r.mon).Agents(context.Background())
	if err != nil || !slices.ContainsFunc(seen.Agents, func(a api.Agent) bool { return a.Name == "alice" }) {
		t.Fatalf("the monitor's agents: %+v %v", seen, err)
	}

	// On a terminal: a header, then one line an identity.
	lines := r.d.OnTTY(t, run, "agents")
	t.Logf("axbus agents on a terminal:\n%s", strings.Join(lines, "\n"))
	if len(lines) < 4 || !strings.HasPrefix(lines[0], "NAME") {
		t.Fatalf("agents on a terminal: %q", lines)
	}
	row := regexp.MustCompile(`^alice +agent +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +1 +\d\d:\d\d:\d\d click Notes done by \S+`)
	if !slices.ContainsFunc(lines, row.MatchString) {
		t.Errorf("no line of alice with her role and last action: %q", lines)
	}
}

// tailUntil runs a tail command line until it printed n lines, then interrupts it, and
// returns what it printed.
func tailUntil(t *testing.T, d *testDaemon, n int, args ...string) string {
	t.Helper()
	return tailLines(t, n, append([]string{args[0], "--state-dir", d.Dir}, args[1:]...)...)
}

// tailLines runs the command (a tail) until it has written n lines, or for 20 s.
func tailLines(t *testing.T, n int, args ...string) string {
	t.Helper()
	return tailWhile(t, func(out []byte) bool { return bytes.Count(out, []byte("\n")) < n }, args...)
}

// tailWhile runs the command (a tail) while more(what it wrote so far), for 20 s at most.
func tailWhile(t *testing.T, more func(out []byte) bool, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	w := &stoppingWriter{more: more, stop: cancel}
	var errb bytes.Buffer
	if code := run(ctx, args, w, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	return w.String()
}

// stoppingWriter calls stop once more says it has what it waits for.
type stoppingWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	more func([]byte) bool
	stop func()
}

func (w *stoppingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.more(w.buf.Bytes()) {
		w.stop()
	}
	return len(p), nil
}

func (w *stoppingWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestNatsCLIFollowsActionRecords: a monitor follows the records with the stock nats CLI, as
// the README says: live with a plain subscription, and from the stream's history.
func TestNatsCLIFollowsActionRecords(t *testing.T) {
	r := startAuditRun(t)
	key := r.d.AddIdentity(t, "watcher", api.RoleMonitor)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	natsCmd := func(args ...string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, testdaemon.NatsCLI(t), append([]string{"-s", r.d.Server.ClientURL(), "--nkey", key}, args...)...)
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+t.TempDir())
		return cmd
	}
	all := r.d.Subjects.AllActions()
	out, err := natsCmd("sub", "--raw", "--count", strconv.Itoa(len(r.steps)), all, "--stream", r.d.Subjects.AuditStreamName(), "--since", "1h").CombinedOutput()
	if err != nil {
		t.Fatalf("nats sub --stream: %v\n%s", err, out)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.HasPrefix(l, "{") {
			got = append(got, testdaemon.Decode[api.ActionRecord](t, l).Agent.Name)
		}
	}
	if len(got) != len(r.steps) || got[0] != "alice" || got[1] != "bob" {
		t.Fatalf("nats sub --stream --since: %v\n%s", got, out)
	}
	out, err = natsCmd("req", "--raw", r.d.Subjects.Endpoint("agents"), "{}").Output()
	if err != nil || !strings.Contains(string(out), `"name":"alice"`) {
		t.Fatalf("nats req agents: %v\n%s", err, out)
	}
	testdaemon.MustMatch(t, "agents.reply", out)

	live := natsCmd("sub", "--raw", "--count", "1", all)
	stdout, err := live.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	subject := r.d.Subjects.Action("Notes", "toggle", "bob")
	before := r.d.Server.Interest(subject)
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	line := testdaemon.FirstJSONLine(stdout)
	testkit.Eventually(t, 10*time.Second, "the nats CLI's subscription", func() bool { return r.d.Server.Interest(subject) > before })
	if _, err := testdaemon.Client(t, r.bob).Act(ctx, "toggle", api.ActionRequest{Target: r.remember}); err != nil {
		t.Fatal(err)
	}
	select {
	case l, ok := <-line:
		if !ok {
			t.Fatal("nats sub ended without a record")
		}
		testdaemon.MustMatch(t, "act", []byte(l))
		if rec := testdaemon.Decode[api.ActionRecord](t, l); rec.Agent.Name != "bob" || rec.Action != "toggle" {
			t.Fatalf("nats sub: %s", l)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nats sub saw no record in 10 s")
	}
	_ = live.Wait()
}

// TestAuditAndPresenceOfALease: a lease acquired is an action on record (its op and app), an
// action refused by it is on record with its code, and agents shows who holds what.
func TestAuditAndPresenceOfALease(t *testing.T) {
	d := startTestDaemon(t)
	alice, bob := d.auditIdentity(t, "alice", api.RoleAgent), d.auditIdentity(t, "bob", api.RoleAgent)
	owner := d.Connect(t)
	sub, err := owner.SubscribeSync(d.Subjects.AllActions())
	if err != nil {
		t.Fatal(err)
	}
	_ = owner.Flush()
	ctx := context.Background()
	insp, err := testdaemon.Client(t, bob).Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{App: "Notes"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := testdaemon.Client(t, alice).Lease(ctx, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: api.AppTarget{App: "Notes"}}); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(insp.Elements, func(e model.Element) bool { return e.Role == model.RoleButton && e.Name == "Save" })
	if i < 0 {
		t.Fatal("the demo has no Save button")
	}
	save := insp.SnapshotID + ":" + insp.Elements[i].ID
	if _, err := testdaemon.Client(t, bob).Act(ctx, "click", api.ActionRequest{Target: save}); model.AsError(err) == nil || model.AsError(err).Code != "LEASE_HELD" {
		t.Fatalf("bob's click on alice's app: %v, want LEASE_HELD", err)
	}
	for _, want := range []struct{ who, action, op, code string }{{"alice", "lease", "acquire", ""}, {"bob", "click", "", "LEASE_HELD"}} {
		msg, err := sub.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		testdaemon.MustMatch(t, "act", msg.Data)
		rec := testdaemon.Decode[api.ActionRecord](t, string(msg.Data))
		if rec.Agent.Name != want.who || rec.Action != want.action || rec.Op != want.op || string(rec.Error) != want.code ||
			rec.App == nil || rec.App.Name != "Notes" || msg.Subject != d.Subjects.Action("Notes", want.action, want.who) {
			t.Errorf("record on %s: %s, want %+v", msg.Subject, msg.Data, want)
		}
	}
	out := must(t, d, "agents")
	testdaemon.MustMatch(t, "agents.reply", []byte(out))
	for _, a := range testdaemon.Decode[api.AgentsReply](t, out).Agents {
		switch a.Name {
		case "alice":
			if len(a.Leases) != 1 || !strings.HasPrefix(a.Leases[0], "app.notes.") || a.LastAction == nil || a.LastAction.Action != "lease" {
				t.Errorf("alice: %+v", a)
			}
		case "bob":
			if len(a.Leases) != 0 || a.LastAction == nil || a.LastAction.Error != "LEASE_HELD" {
				t.Errorf("bob: %+v", a)
			}
		}
	}
}
