package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nats.go/micro"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

// The attacks of issue 14, made as a hostile client makes them: with the real nats CLI and the
// credentials of a monitor, an agent or the desktop's owner (admin). Each is refused by the
// server (a permission violation, or a subject that leads nowhere), and the daemon serves every
// identity as before afterwards.
func TestSecurityAttacksWithTheNatsCLI(t *testing.T) {
	s := startSecDaemon(t)

	t.Run("forged event", func(t *testing.T) {
		watch := s.connectAs(t, s.owner)
		live, err := watch.SubscribeSync(s.Subjects.AllEvents())
		if err != nil {
			t.Fatal(err)
		}
		if err := watch.Flush(); err != nil {
			t.Fatal(err)
		}
		forged := `{"host":"testhost","boot":"FORGED","seq":1,"time":"2026-01-01T00:00:00Z","app":{"name":"Notes","pid":501},` +
			`"type":"value_changed","element":{"role":"text","name":"FORGED by the nats CLI"}}`
		for _, who := range []secIdent{s.agent, s.monitor} {
			out, err := s.natsAs(t, who, "pub", s.Subjects.Event("notes", "value_changed"), forged)
			if err == nil || !strings.Contains(out, `Permissions Violation for Publish to "ax.testhost.evt.notes.value_changed"`) {
				t.Errorf("%s's forged event: %v, want a permissions violation:\n%s", who.name, err, out)
			}
		}
		// A real event after the forgeries: the owner's subscription and tail see it, and only
		// the daemon's events before it.
		s.toggle(t, s.agent)
		var real api.Envelope // the toggle's event, published after the forgeries
		for real.Element == nil || real.Element.Name != "Remember me" {
			m, err := live.NextMsg(10 * time.Second)
			if err != nil {
				t.Fatalf("no event of the toggle: %v", err)
			}
			if strings.Contains(string(m.Data), "FORGED") {
				t.Fatalf("the owner received the forged event: %s", m.Data)
			}
			real = api.Envelope{}
			_ = json.Unmarshal(m.Data, &real)
		}
		evs := s.tailUntil(t, s.owner, func(e api.Envelope) bool { return e.Seq >= real.Seq })
		s.onlyTheDaemons(t, evs)
		s.unharmed(t)
	})

	t.Run("Nats-Msg-Id of the next events", func(t *testing.T) {
		// The attacker reads the boot id and sequence of a real event, as any role may...
		nc := s.connectAs(t, s.agent)
		live, err := nc.SubscribeSync(s.Subjects.AllEvents())
		if err != nil {
			t.Fatal(err)
		}
		if err := nc.Flush(); err != nil {
			t.Fatal(err)
		}
		s.toggle(t, s.agent)
		m, err := live.NextMsg(10 * time.Second)
		if err != nil {
			t.Fatalf("no event: %v", err)
		}
		var last api.Envelope
		if err := json.Unmarshal(m.Data, &last); err != nil || last.Boot == "" {
			t.Fatalf("event %s: %v", m.Data, err)
		}
		// ... and claims the ids of the next three with junk.
		for n := last.Seq + 1; n <= last.Seq+3; n++ {
			id := fmt.Sprintf("%s-%s-%d", last.Host, last.Boot, n)
			out, err := s.natsAs(t, s.agent, "pub", "--header", nats.MsgIdHdr+":"+id, s.Subjects.Event("notes", "value_changed"), "junk")
			if err == nil || !strings.Contains(out, "Permissions Violation for Publish") {
				t.Errorf("junk with Nats-Msg-Id %s: %v, want a permissions violation:\n%s", id, err, out)
			}
		}
		// The daemon's real next events land in the stream: every sequence number once.
		s.toggle(t, s.agent)
		s.toggle(t, s.agent)
		evs := s.tailUntil(t, s.owner, func(e api.Envelope) bool { return e.Seq >= last.Seq+3 })
		s.onlyTheDaemons(t, evs)
		seen := map[uint64]int{}
		for _, e := range evs {
			seen[e.Seq]++
		}
		for n := uint64(1); n <= last.Seq+3; n++ {
			if seen[n] != 1 {
				t.Errorf("the stream holds event %d %d times, want once (seen: %v)", n, seen[n], seen)
			}
		}
		st := s.status(t, s.owner)
		if st.Events.Dropped != 0 || st.Events.Published < last.Seq+3 {
			t.Errorf("status events: %+v, want nothing dropped and at least %d published", st.Events, last.Seq+3)
		}
		s.unharmed(t)
	})

	t.Run("purge and delete the stream", func(t *testing.T) {
		before := s.streamState(t)
		if before.Msgs == 0 {
			t.Fatal("the stream holds nothing to lose")
		}
		for _, who := range []secIdent{s.agent, s.monitor} {
			out, err := s.natsAs(t, who, "stream", "purge", s.stream, "-f")
			if err == nil || !secRefused(out) {
				t.Errorf("%s purged the stream: %v\n%s", who.name, err, out)
			}
			out, err = s.natsAs(t, who, "stream", "rm", s.stream, "-f")
			if err == nil || !secRefused(out) {
				t.Errorf("%s deleted the stream: %v\n%s", who.name, err, out)
			}
		}
		after := s.streamState(t)
		if after.FirstSeq != before.FirstSeq || after.Msgs < before.Msgs || after.LastSeq < before.LastSeq {
			t.Fatalf("the stream lost messages: before %+v, after %+v", before, after)
		}
		// tail still works, from the first event on, as each role.
		published := s.status(t, s.owner).Events.Published
		for _, who := range []secIdent{s.monitor, s.agent} {
			evs := s.tailUntil(t, who, func(e api.Envelope) bool { return e.Seq >= published })
			if evs[0].Seq != 1 {
				t.Errorf("%s's tail --all starts at event %d", who.name, evs[0].Seq)
			}
		}
		s.unharmed(t)
	})

	t.Run("rogue streams on the api and the inboxes", func(t *testing.T) {
		for _, who := range []secIdent{s.monitor, s.agent, s.owner} {
			for i, subjects := range []string{s.Subjects.API() + ".>", "_INBOX.>"} {
				name := "ROGUE" + string(rune('A'+i))
				out, err := s.natsAs(t, who, "stream", "add", name, "--subjects", subjects, "--defaults")
				if err == nil || !secRefused(out) {
					t.Errorf("%s made a stream on %s: %v\n%s", who.name, subjects, err, out)
				}
			}
		}
		js := s.jetStream(t, s.owner)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		// The daemon's streams only (events, and whatever else it keeps), none capturing the api
		// or inboxes.
		var names []string
		lister := js.ListStreams(ctx)
		for info := range lister.Info() {
			names = append(names, info.Config.Name)
			for _, subj := range info.Config.Subjects {
				if strings.HasPrefix(info.Config.Name, "ROGUE") || strings.HasPrefix(subj, s.Subjects.API()) ||
					strings.HasPrefix(subj, "_INBOX") || subj == ">" {
					t.Errorf("stream %s captures %s", info.Config.Name, subj)
				}
			}
		}
		if err := lister.Err(); err != nil || !slices.Contains(names, s.stream) {
			t.Errorf("streams %v (%v), want %s among them", names, err, s.stream)
		}
		t.Logf("the streams: %v", names)
		s.unharmed(t) // apps answers the apps (not {"apps":null}) for every role
	})

	t.Run("a consumer delivering into the api", func(t *testing.T) {
		// A push consumer's deliver subject lives in the daemon's account: if the monitor may
		// make one, JetStream itself publishes the stored events on the api subject, in the
		// service's queue group, with no Nats-Request-Info, and the service takes each for a
		// request of the daemon's own (identity "daemon", role admin).
		before := s.endpointRequests(t, "status")
		state := s.streamState(t)
		out, err := s.natsAs(t, s.monitor, "consumer", "add", s.stream, "ROGUE_DELIVERY", "--target", s.Subjects.Endpoint("status"),
			"--deliver-group", micro.DefaultQueueGroup, "--headers-only", "--deliver", "all", "--defaults")
		if err != nil {
			s.unharmed(t)
			return // refused
		}
		js := s.jetStream(t, s.owner)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		defer func() {
			if err := js.DeleteConsumer(ctx, s.stream, "ROGUE_DELIVERY"); err != nil {
				t.Errorf("the owner cannot delete the rogue consumer: %v", err)
			}
		}()
		// Wait for the consumer to deliver the history it was made with; then a status request of
		// the owner's, on the same subscription after what was delivered, is handled after it.
		var delivered uint64
		testkit.Within(5*time.Second, func() bool {
			info := s.consumerInfo(t, "ROGUE_DELIVERY")
			delivered = info.Delivered.Consumer
			return info.Delivered.Stream >= state.LastSeq
		})
		if _, err := testdaemon.Client(t, s.connectAs(t, s.owner)).Status(ctx); err != nil {
			t.Fatalf("the owner's status: %v", err)
		}
		handled := s.endpointRequests(t, "status") - before - 1
		if handled > 0 {
			t.Errorf("HOLE: the monitor made a push consumer on %s delivering into %s (group %s): JetStream delivered %d stored "+
				"events and the daemon's status endpoint handled %d of them as its own requests (no Nats-Request-Info: identity "+
				"daemon, role admin; no per-identity limit)\n%s", s.stream, s.Subjects.Endpoint("status"), micro.DefaultQueueGroup,
				delivered, handled, out)
		}
		s.unharmed(t)
	})

	for _, c := range []struct{ spy, asker secIdent }{{s.monitor, s.agent}, {s.agent, s.monitor}, {s.agent, s.owner}} {
		t.Run("reading the replies of others/"+c.spy.name+" reads "+c.asker.name+"'s", func(t *testing.T) {
			spy := s.natsStart(t, c.spy, "sub", "_INBOX.>")
			spy.waitFor(t, "Subscribing on _INBOX.>")
			own := s.connectAs(t, c.spy)
			// A canary of the spy's own, published until the spy prints it: "Subscribing on" comes
			// before the subscription is in place.
			n := 0
			canary := func() {
				t.Helper()
				for deadline := time.Now().Add(10 * time.Second); ; {
					n++
					if err := own.Publish("_INBOX.canary", []byte(fmt.Sprintf("canary-%d", n))); err != nil {
						t.Fatal(err)
					}
					if spy.waitWithin(fmt.Sprintf("canary-%d", n), 100*time.Millisecond) {
						return
					}
					if time.Now().After(deadline) {
						t.Fatalf("the spy never printed its canary:\n%s", spy.output())
					}
				}
			}
			canary() // the spy's subscription is in place
			cl := testdaemon.Client(t, s.connectAs(t, c.asker))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			for range 5 {
				if _, err := cl.Apps(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := cl.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{App: "Notes"}}); err != nil {
				t.Fatal(err)
			}
			if out, errOut, code := s.cliAs(t, c.asker, "apps"); code != 0 {
				t.Fatalf("apps: exit %d: %s %s", code, out, errOut)
			}
			canary() // everything before it has reached the spy
			out := spy.output()
			if strings.Count(out, "Received on") != strings.Count(out, `Received on "_INBOX.canary"`) || strings.Contains(out, "Notes") {
				t.Errorf("%s's `nats sub _INBOX.>` saw more than its own canaries:\n%s", c.spy.name, out)
			}
			// The spy does see a reply to its own identity: what it saw not, it could not.
			if _, err := own.Request(s.Subjects.Endpoint("apps"), []byte("{}"), 5*time.Second); err != nil {
				t.Fatal(err)
			}
			spy.waitFor(t, `"name":"Notes"`)
			spy.stop()
			s.unharmed(t)
		})
	}

	t.Run("answering api requests", func(t *testing.T) {
		fake := s.natsStart(t, s.agent, "reply", s.Subjects.Endpoint("apps"), `{"apps":[{"pid":1,"name":"Fake"}]}`, "--queue", "q")
		line := fake.waitFor(t, "Permissions Violation", "Listening on")
		if !strings.Contains(line, `Permissions Violation for Subscription to "ax.testhost.api.apps"`) {
			t.Logf("the agent's replier was not refused (%q): it must have no effect", line)
		}
		for _, who := range []secIdent{s.owner, s.monitor, s.agent} {
			nc := s.connectAs(t, who)
			for i := range 10 {
				m, err := nc.Request(s.Subjects.Endpoint("apps"), []byte("{}"), 5*time.Second)
				if err != nil {
					t.Fatalf("%s's apps request %d: %v", who.name, i, err)
				}
				s.realApps(t, who.name, m.Data)
			}
		}
		if out, errOut, code := s.cliAs(t, s.owner, "apps"); code != 0 {
			t.Fatalf("apps: exit %d %s", code, errOut)
		} else {
			s.realApps(t, "owner's axbus apps", []byte(out))
		}
		s.unharmed(t)
	})

	t.Run("a monitor cannot act nor manage", func(t *testing.T) {
		target, value := s.checkbox(t, s.monitor) // a monitor may inspect
		for _, args := range [][]string{
			{"req", s.Subjects.Endpoint("click"), `{"target":"` + target + `"}`},
			{"req", s.Subjects.Endpoint("toggle"), `{"target":"` + target + `"}`},
			// an identity the server vouches for is not one the client writes
			{"req", "--header", `Nats-Request-Info:{"acc":"owner"}`, s.Subjects.Endpoint("toggle"), `{"target":"` + target + `"}`},
			{"req", s.Subjects.Endpoint("creds"), `{"op":"ls"}`},
			{"req", s.Subjects.Endpoint("creds"), `{"op":"rm","name":"agent1"}`},
		} {
			out, _ := s.natsAs(t, s.monitor, args...)
			if !strings.Contains(out, "No responders are available") {
				t.Errorf("monitor: nats %s: want no responders:\n%s", strings.Join(args, " "), out)
			}
		}
		for _, args := range [][]string{{"click", target}, {"toggle", target}, {"creds", "ls"}, {"creds", "rm", "agent1"}} {
			_, errOut, code := s.cliAs(t, s.monitor, args...)
			if code != model.CodePermissionDenied.Info().Exit || !strings.Contains(errOut, "PERMISSION_DENIED") {
				t.Errorf("monitor: axbus %s: exit %d %q, want %d PERMISSION_DENIED", strings.Join(args, " "), code, errOut,
					model.CodePermissionDenied.Info().Exit)
			}
		}
		seed := filepath.Join(t.TempDir(), "evil.nk")
		_, errOut, code := s.cliAs(t, s.monitor, "creds", "add", "evil", "--role", "admin", "--out", seed)
		if code != model.CodePermissionDenied.Info().Exit {
			t.Errorf("monitor: creds add: exit %d %q", code, errOut)
		}
		if _, err := os.Stat(seed); !os.IsNotExist(err) {
			t.Errorf("a refused creds add left its seed: %v", err)
		}
		if _, v := s.checkbox(t, s.monitor); v != value {
			t.Errorf("the checkbox went from %q to %q: the monitor acted", value, v)
		}
		s.noUser(t, "evil")
		s.unharmed(t)
	})

	t.Run("an agent cannot manage", func(t *testing.T) {
		for _, args := range [][]string{
			{"req", s.Subjects.Endpoint("creds"), `{"op":"ls"}`},
			{"req", "--header", `Nats-Request-Info:{"acc":"owner"}`, s.Subjects.Endpoint("creds"),
				`{"op":"add","name":"evil","role":"admin","nkey":"` + secPublicKey(t) + `"}`},
		} {
			out, _ := s.natsAs(t, s.agent, args...)
			if !strings.Contains(out, "No responders are available") {
				t.Errorf("agent: nats %s: want no responders:\n%s", strings.Join(args, " "), out)
			}
		}
		seed := filepath.Join(t.TempDir(), "evil.nk")
		for _, args := range [][]string{{"creds", "ls"}, {"creds", "rm", "mon"}, {"creds", "add", "evil", "--role", "admin", "--out", seed}} {
			_, errOut, code := s.cliAs(t, s.agent, args...)
			if code != model.CodePermissionDenied.Info().Exit || !strings.Contains(errOut, "PERMISSION_DENIED") {
				t.Errorf("agent: axbus %s: exit %d %q, want PERMISSION_DENIED", strings.Join(args, " "), code, errOut)
			}
		}
		s.noUser(t, "evil")
		// An agent acts, though (the check that the refusals above are the role's).
		s.toggle(t, s.agent)
		s.toggle(t, s.agent)
		s.unharmed(t)
	})

	t.Run("a removed identity", func(t *testing.T) {
		seed := filepath.Join(t.TempDir(), "doomed.nk")
		if out, errOut, code := s.cliAs(t, s.owner, "creds", "add", "doomed", "--role", "agent", "--out", seed); code != 0 {
			t.Fatalf("creds add: exit %d %s %s", code, out, errOut)
		}
		doomed := secIdent{name: "doomed", role: api.RoleAgent, seed: seed}
		var mu sync.Mutex
		var asyncErrs []string
		disconnected, closed := make(chan struct{}), make(chan struct{})
		var once sync.Once
		nc := s.connectAs(t, doomed, nats.MaxReconnects(3), nats.ReconnectWait(20*time.Millisecond),
			nats.DisconnectErrHandler(func(*nats.Conn, error) { once.Do(func() { close(disconnected) }) }),
			nats.ClosedHandler(func(*nats.Conn) { close(closed) }),
			nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
				mu.Lock()
				asyncErrs = append(asyncErrs, err.Error())
				mu.Unlock()
			}))
		if _, err := testdaemon.Client(t, nc).Apps(context.Background()); err != nil {
			t.Fatalf("doomed's apps before: %v", err)
		}
		sub := s.natsStart(t, doomed, "sub", s.Subjects.AllEvents())
		sub.waitFor(t, "Subscribing on")

		start := time.Now()
		out, errOut, code := s.cliAs(t, s.owner, "creds", "rm", "doomed")
		if code != 0 || strings.Contains(out, `"doomed"`) {
			t.Fatalf("creds rm: exit %d %s %s", code, out, errOut)
		}
		select {
		case <-disconnected:
			t.Logf("the removed identity's connection went %v after creds rm began", time.Since(start).Round(time.Millisecond))
		case <-time.After(5 * time.Second):
			t.Fatal("the removed identity is still connected 5 s later")
		}
		select {
		case <-closed:
		case <-time.After(10 * time.Second):
			t.Fatal("the removed identity's client still reconnects 10 s later")
		}
		mu.Lock()
		if !slices.ContainsFunc(asyncErrs, func(e string) bool { return strings.Contains(strings.ToLower(e), "authorization violation") }) {
			t.Errorf("reconnecting, the removed identity got %q, want an authorization violation", asyncErrs)
		}
		mu.Unlock()
		t.Logf("the removed identity's `nats sub`: %q", sub.waitFor(t, "uthorization violation", "uthorization Violation"))
		out, err := s.natsAs(t, doomed, "req", s.Subjects.Endpoint("apps"), "{}")
		if err == nil || !strings.Contains(out, "Authorization Violation") {
			t.Errorf("the removed identity's nats req: %v\n%s", err, out)
		}
		_, errOut, code = s.cliAs(t, doomed, "apps")
		if code != model.CodePermissionDenied.Info().Exit || !strings.Contains(errOut, "PERMISSION_DENIED") {
			t.Errorf("the removed identity's axbus apps: exit %d %q", code, errOut)
		}
		s.noUser(t, "doomed")
		s.unharmed(t)
	})

	// Last: what the others may not do, the owner (admin) may.
	t.Run("the admin purges", func(t *testing.T) {
		before, published := s.streamState(t), s.status(t, s.owner).Events.Published
		out, err := s.natsAs(t, s.owner, "stream", "purge", s.stream, "-f")
		if err != nil {
			t.Fatalf("the owner's purge: %v\n%s", err, out)
		}
		if after := s.streamState(t); after.FirstSeq <= before.LastSeq {
			t.Fatalf("after the purge the stream starts at %d, before it ended at %d", after.FirstSeq, before.LastSeq)
		}
		// The daemon's events go on landing, and tail follows them.
		s.toggle(t, s.agent)
		evs := s.tailUntil(t, s.monitor, func(api.Envelope) bool { return true })
		if evs[0].Seq <= published {
			t.Errorf("tail --all after the purge starts with event %d, though %d were purged", evs[0].Seq, published)
		}
		s.unharmed(t)
	})
}

// secIdent is a client identity: its name, role and nkey seed file.
type secIdent struct{ name, role, seed string }

// secDaemon is a test daemon with three identities: the owner (admin, the state dir's
// client.nk), a monitor made with `axbus creds add`, an agent made with Server.AddUser.
type secDaemon struct {
	*testDaemon
	url                   string
	stream                string
	owner, monitor, agent secIdent
}

func startSecDaemon(t *testing.T) *secDaemon {
	t.Helper()
	d := startTestDaemon(t)
	info := d.Server.Info()
	s := &secDaemon{testDaemon: d, url: info.URL, stream: d.Subjects.StreamName(),
		owner: secIdent{name: embedded.OwnerName, role: api.RoleAdmin, seed: info.CredsFile}}
	seed := filepath.Join(t.TempDir(), "mon.nk")
	if out, errOut, code := s.cliAs(t, s.owner, "creds", "add", "mon", "--role", "monitor", "--out", seed); code != 0 {
		t.Fatalf("creds add mon: exit %d %s %s", code, out, errOut)
	}
	if fi, err := os.Stat(seed); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the monitor's seed: %v %v", fi, err)
	}
	s.monitor = secIdent{name: "mon", role: api.RoleMonitor, seed: seed}
	s.agent = s.addUser(t, "agent1", api.RoleAgent)
	return s
}

// addUser makes an nkey, writes its seed (0600) and adds the user to the server.
func (s *secDaemon) addUser(t *testing.T, name, role string) secIdent {
	t.Helper()
	return secIdent{name: name, role: role, seed: s.AddIdentity(t, name, role)}
}

func secPublicKey(t *testing.T) string {
	t.Helper()
	_, pub := testdaemon.NewNkey(t, "unused")
	return pub
}

// connFlags are the axbus flags that connect as who: the local daemon's default (the owner) or
// its URL and an nkey.
func (s *secDaemon) connFlags(who secIdent) []string {
	if who.name == embedded.OwnerName {
		return []string{"--state-dir", s.Dir}
	}
	return []string{"--server", s.url, "--nkey", who.seed}
}

// cliAs runs an axbus command line in-process as who.
func (s *secDaemon) cliAs(t *testing.T, who secIdent, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code = run(ctx, append(slices.Clone(args), s.connFlags(who)...), &out, &errb)
	return out.String(), errb.String(), code
}

func (s *secDaemon) connectAs(t *testing.T, who secIdent, opts ...nats.Option) *nats.Conn {
	t.Helper()
	key, err := nats.NkeyOptionFromSeed(who.seed)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(s.url, append([]nats.Option{key, nats.Name("security-test " + who.name), nats.Timeout(2 * time.Second)}, opts...)...)
	if err != nil {
		t.Fatalf("connect as %s: %v", who.name, err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// secNatsCmd is the real nats CLI as who, with no context or setting of this machine's.
func (s *secDaemon) secNatsCmd(t *testing.T, ctx context.Context, who secIdent, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.CommandContext(ctx, testdaemon.NatsCLI(t), append([]string{"--server", s.url, "--nkey", who.seed}, args...)...)
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "NATS_") })
	cmd.Env = append(env, "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+t.TempDir())
	return cmd
}

// natsAs runs the nats CLI as who and returns its combined output, logged for the record.
func (s *secDaemon) natsAs(t *testing.T, who secIdent, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := s.secNatsCmd(t, ctx, who, args...).CombinedOutput()
	t.Logf("%s$ nats %s\n%s(%v)", who.name, strings.Join(args, " "), out, err)
	return string(out), err
}

// secRefused says whether the nats CLI's output is the server's refusal: the subject leads
// nowhere for this account, or a permission violation.
func secRefused(out string) bool {
	return strings.Contains(out, "no responders available") || strings.Contains(out, "Permissions Violation")
}

// secProc is a nats CLI that keeps running (sub, reply), its output gathered as it comes.
type secProc struct {
	cancel  context.CancelFunc
	mu      sync.Mutex
	out     strings.Builder
	changed chan struct{} // closed at each new line, then replaced
	ended   chan struct{} // closed when the output ends (the process exited)
	stop    func()
}

func (s *secDaemon) natsStart(t *testing.T, who secIdent, args ...string) *secProc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	cmd := s.secNatsCmd(t, ctx, who, args...)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	_ = w.Close()
	p := &secProc{cancel: cancel, changed: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(p.ended)
		defer r.Close()
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.out.WriteString(sc.Text() + "\n")
			close(p.changed)
			p.changed = make(chan struct{})
			p.mu.Unlock()
		}
	}()
	var once sync.Once
	p.stop = func() {
		once.Do(func() {
			cancel()
			err := cmd.Wait()
			<-p.ended
			t.Logf("%s$ nats %s\n%s(%v)", who.name, strings.Join(args, " "), p.output(), err)
		})
	}
	t.Cleanup(p.stop)
	return p
}

func (p *secProc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// waitFor waits (10 s at most) for a line with one of subs and returns it.
func (p *secProc) waitFor(t *testing.T, subs ...string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		p.mu.Lock()
		out, changed := p.out.String(), p.changed
		p.mu.Unlock()
		for _, line := range strings.Split(out, "\n") {
			for _, sub := range subs {
				if strings.Contains(line, sub) {
					return line
				}
			}
		}
		select {
		case <-changed:
		case <-p.ended:
			if out != p.output() {
				continue
			}
			t.Fatalf("the nats CLI ended without a line with %q:\n%s", subs, out)
		case <-timeout:
			t.Fatalf("no line with %q in 10 s:\n%s", subs, out)
		}
	}
}

// waitWithin says whether a line with sub comes within d.
func (p *secProc) waitWithin(sub string, d time.Duration) bool {
	timeout := time.After(d)
	for {
		p.mu.Lock()
		out, changed := p.out.String(), p.changed
		p.mu.Unlock()
		if strings.Contains(out, sub) {
			return true
		}
		select {
		case <-changed:
		case <-p.ended:
			return strings.Contains(p.output(), sub)
		case <-timeout:
			return false
		}
	}
}

// tailUntil runs `axbus tail --all` as who until an event satisfies until (15 s at most), and
// returns the events it printed, every line an envelope.
func (s *secDaemon) tailUntil(t *testing.T, who secIdent, until func(api.Envelope) bool) []api.Envelope {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	var errb bytes.Buffer
	code := make(chan int, 1)
	go func() {
		c := run(ctx, append([]string{"tail", "--all", "--json"}, s.connFlags(who)...), pw, &errb)
		_ = pw.Close()
		code <- c
	}()
	var evs []api.Envelope
	found := false
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		var e api.Envelope
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Boot == "" {
			t.Errorf("%s's tail printed what is no event: %s", who.name, sc.Text())
			continue
		}
		if evs = append(evs, e); until(e) {
			found = true
			break
		}
	}
	cancel()
	_, _ = io.Copy(io.Discard, pr)
	c := <-code
	if !found {
		t.Fatalf("%s's tail --all ended (exit %d: %s) before the event awaited; it printed %d", who.name, c, errb.String(), len(evs))
	}
	return evs
}

// onlyTheDaemons fails unless every event is one of this daemon run's.
func (s *secDaemon) onlyTheDaemons(t *testing.T, evs []api.Envelope) {
	t.Helper()
	for _, e := range evs {
		if e.Host != "testhost" || e.Boot != s.Pub.Boot() || (e.Element != nil && strings.Contains(e.Element.Name, "FORGED")) {
			t.Errorf("tail shows an event the daemon did not publish: %+v", e)
		}
	}
}

// checkbox is the target of the demo's "Remember me" checkbox and its value, as who inspects it.
func (s *secDaemon) checkbox(t *testing.T, who secIdent) (target, value string) {
	t.Helper()
	cl := testdaemon.Client(t, s.connectAs(t, who))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	insp, err := cl.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{App: "Notes"}})
	if err != nil {
		t.Fatalf("%s's inspect: %v", who.name, err)
	}
	for _, e := range insp.Elements {
		if e.Role == model.RoleCheckbox && e.Name == "Remember me" {
			if e.Value != nil {
				value = *e.Value
			}
			return insp.SnapshotID + ":" + e.ID, value
		}
	}
	t.Fatal("no Remember me checkbox")
	return "", ""
}

// toggle toggles the checkbox as who: an action, and an event of the daemon's.
func (s *secDaemon) toggle(t *testing.T, who secIdent) {
	t.Helper()
	target, _ := s.checkbox(t, who)
	cl := testdaemon.Client(t, s.connectAs(t, who))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cl.Act(ctx, "toggle", api.ActionRequest{Target: target}); err != nil {
		t.Fatalf("%s's toggle: %v", who.name, err)
	}
}

func (s *secDaemon) status(t *testing.T, who secIdent) *api.StatusReply {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := testdaemon.Client(t, s.connectAs(t, who)).Status(ctx)
	if err != nil {
		t.Fatalf("%s's status: %v", who.name, err)
	}
	return st
}

func (s *secDaemon) jetStream(t *testing.T, who secIdent) jetstream.JetStream {
	t.Helper()
	js, err := jetstream.New(s.connectAs(t, who))
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// streamState is the event stream's state, as the owner reads it.
func (s *secDaemon) streamState(t *testing.T) jetstream.StreamState {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := s.jetStream(t, s.owner).Stream(ctx, s.stream)
	if err != nil {
		t.Fatalf("the event stream: %v", err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatalf("the event stream: %v", err)
	}
	return info.State
}

// consumerInfo is what the owner learns of a consumer of the event stream (push or pull).
func (s *secDaemon) consumerInfo(t *testing.T, name string) *jetstream.ConsumerInfo {
	t.Helper()
	m, err := s.connectAs(t, s.owner).Request("$JS.API.CONSUMER.INFO."+s.stream+"."+name, nil, 5*time.Second)
	if err != nil {
		t.Fatalf("consumer info %s: %v", name, err)
	}
	var info jetstream.ConsumerInfo
	if err := json.Unmarshal(m.Data, &info); err != nil || info.Name != name {
		t.Fatalf("consumer info %s: %v %s", name, err, m.Data)
	}
	return &info
}

// endpointRequests is how many requests the service's endpoint has answered (micro stats).
func (s *secDaemon) endpointRequests(t *testing.T, endpoint string) int {
	t.Helper()
	m, err := s.connectAs(t, s.owner).Request("$SRV.STATS."+api.ServiceName, nil, 5*time.Second)
	if err != nil {
		t.Fatalf("micro stats: %v", err)
	}
	var stats micro.Stats
	if err := json.Unmarshal(m.Data, &stats); err != nil {
		t.Fatalf("micro stats: %v %s", err, m.Data)
	}
	for _, ep := range stats.Endpoints {
		if ep.Name == endpoint {
			return ep.NumRequests
		}
	}
	t.Fatalf("micro stats lack %s", endpoint)
	return 0
}

// realApps fails unless doc is the demo desktop's apps reply: Notes and Mail, nothing made up.
func (s *secDaemon) realApps(t *testing.T, who string, doc []byte) {
	t.Helper()
	var r api.AppsReply
	if err := json.Unmarshal(doc, &r); err != nil {
		t.Fatalf("%s: apps reply %s: %v", who, doc, err)
	}
	pids := map[string]int{}
	for _, a := range r.Apps {
		pids[a.Name] = a.PID
	}
	if len(r.Apps) != 2 || pids["Notes"] != 501 || pids["Mail"] != 502 {
		t.Fatalf("%s: apps reply %s, want the demo's Notes and Mail", who, doc)
	}
}

func (s *secDaemon) noUser(t *testing.T, name string) {
	t.Helper()
	out, errOut, code := s.cliAs(t, s.owner, "creds", "ls")
	if code != 0 {
		t.Fatalf("creds ls: exit %d %s", code, errOut)
	}
	for _, u := range testdaemon.Decode[api.CredsReply](t, out).Users {
		if u.Name == name {
			t.Errorf("creds ls lists %s: %s", name, out)
		}
	}
}

// unharmed checks that the daemon serves every identity: apps, status with nothing dropped,
// the event stream in place.
func (s *secDaemon) unharmed(t *testing.T) {
	t.Helper()
	for _, who := range []secIdent{s.owner, s.monitor, s.agent} {
		out, errOut, code := s.cliAs(t, who, "apps")
		if code != 0 {
			t.Fatalf("%s's apps: exit %d %s %s", who.name, code, out, errOut)
		}
		s.realApps(t, who.name+"'s axbus apps", []byte(out))
	}
	st := s.status(t, s.owner)
	if st.Stream != s.stream || st.Events.Dropped != 0 || st.Events.Published == 0 {
		t.Fatalf("status: stream %q, events %+v", st.Stream, st.Events)
	}
	s.streamState(t)
}

// TestCoordinationSubjects: an agent publishes on its own coordination subjects and every
// other identity hears it; what it says under another agent's name stays in its own account,
// and a monitor may not speak there at all.
func TestCoordinationSubjects(t *testing.T) {
	d := startTestDaemon(t)
	connect := func(name, role string) *nats.Conn {
		t.Helper()
		opt, err := nats.NkeyOptionFromSeed(d.AddIdentity(t, name, role))
		if err != nil {
			t.Fatal(err)
		}
		nc, err := nats.Connect(d.Server.ClientURL(), opt)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	alice, bob, mon := connect("alice", api.RoleAgent), connect("bob", api.RoleAgent), connect("mon", api.RoleMonitor)
	bobHears, monHears := testkit.Subscribed(t, bob, d.Subjects.Coordination("*")), testkit.Subscribed(t, mon, d.Subjects.Coordination("*"))
	_ = mon.Publish("ax.testhost.coord.mon.x", []byte("from the monitor"))
	_ = alice.Publish("ax.testhost.coord.bob.claim", []byte("alice as bob"))
	_ = alice.Publish("ax.testhost.coord.alice.claim", []byte("notes is mine"))
	_ = alice.Flush()
	_ = mon.Flush()
	for who, sub := range map[string]*nats.Subscription{"bob": bobHears, "mon": monHears} {
		m, err := sub.NextMsg(5 * time.Second)
		if err != nil || string(m.Data) != "notes is mine" || m.Subject != "ax.testhost.coord.alice.claim" {
			t.Fatalf("%s heard %v %v, want alice's claim first and alone", who, m, err)
		}
		if m, err := sub.NextMsg(200 * time.Millisecond); err == nil {
			t.Fatalf("%s also heard %q on %s", who, m.Data, m.Subject)
		}
	}
}
