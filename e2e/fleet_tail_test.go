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
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/observer/sim"
)

// TestFleetTail: `tail --host '*'` from a client of the hub replays the three hosts' histories
// merged in time order, then follows all three live; a tail that runs through a hub outage
// gets every event the hosts recorded meanwhile, each host's in its order, none lost; and a new
// tail after it replays them from the hosts' histories, merged in time order.
func TestFleetTail(t *testing.T) {
	hosts := []string{"h1", "h2", "h3"}
	f := testdaemon.StartFleet(t, hosts, map[string]daemon.HubClient{}, nil)
	set := func(round int, what string) {
		t.Helper()
		for _, h := range hosts {
			if err := f.Hosts[h].Backend.(*sim.Desktop).SetValue(501, "title", fmt.Sprintf("%s %s %d", h, what, round)); err != nil {
				t.Fatal(err)
			}
		}
	}
	const rounds = 10
	for i := range rounds {
		set(i, "kept")
	}

	// The CLI: the histories merged, then live events of every host.
	lines := make(chan api.Envelope, 100)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"tail", "notes.value_changed", "--all", "--json", "--host", "*", "-s", f.Hub.ClientURL,
			"--nkey", f.Hub.AdminSeedFile}, pw, io.Discard)
		pw.Close()
	}()
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var env api.Envelope
			if json.Unmarshal(sc.Bytes(), &env) == nil {
				lines <- env
			}
		}
		close(lines)
	}()
	next := func(what string) api.Envelope {
		t.Helper()
		for {
			select {
			case env, ok := <-lines:
				if !ok {
					t.Fatalf("tail --host '*' ended (exit %d) before %s", <-code, what)
				}
				if isTitle(env) {
					return env
				}
			case <-ctx.Done():
				t.Fatalf("tail --host '*': no %s", what)
			}
		}
	}
	inOrder(t, "the merged history", rounds, "kept", func() api.Envelope { return next("history") })
	set(0, "live")
	live := map[string]bool{}
	for range hosts {
		env := next("live event")
		live[env.Element.Value] = true
	}
	for _, h := range hosts {
		if !live[h+" live 0"] {
			t.Fatalf("tail --host '*' live: %v, missing %s", live, h)
		}
	}
	cancel()
	if c := <-code; c != 0 {
		t.Fatalf("tail --host '*' exit %d", c)
	}
	// Every host's tail leaves out what --exclude says; an app no host knows is APP_NOT_FOUND.
	hub := []string{"--host", "*", "-s", f.Hub.ClientURL, "--nkey", f.Hub.AdminSeedFile}
	if err := f.Hosts["h1"].Backend.(*sim.Desktop).SetTitle(501, "remember", "after the rounds"); err != nil {
		t.Fatal(err)
	}
	excluding := tailWhile(t, func(out []byte) bool { return !strings.Contains(string(out), "after the rounds") },
		append([]string{"tail", "notes", "--all", "--json", "--exclude", "value_changed"}, hub...)...)
	if strings.Contains(excluding, `"type":"value_changed"`) || !strings.Contains(excluding, `"type":"title_changed"`) {
		t.Fatalf("tail --host '*' --exclude value_changed:\n%s", excluding)
	}
	var errOut bytes.Buffer
	if c := run(context.Background(), append([]string{"tail", "nosuch"}, hub...), io.Discard, &errOut); c != exitNotFound || !strings.Contains(errOut.String(), "APP_NOT_FOUND") {
		t.Fatalf("tail nosuch --host '*': exit %d: %s", c, errOut.String())
	}

	// A tail that runs through a hub outage: the events of the outage come when the hub is
	// back, from the hosts' streams, in order.
	admin := f.Client(t, f.Hub.AdminSeedFile)
	var clients []*client.Client
	for _, h := range hosts {
		clients = append(clients, testdaemon.On(t, admin, h))
	}
	tctx, tcancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer tcancel()
	tail, err := client.TailFleet(tctx, clients, client.TailOptions{App: "notes", Type: "value_changed"})
	if err != nil {
		t.Fatal(err)
	}
	set(0, "before")
	before := map[string]bool{}
	for len(before) < len(hosts) {
		if env := <-tail; isTitle(env) {
			before[env.Element.Value] = true
		}
	}
	f.Hub.Shutdown()
	for i := range rounds {
		set(i, "outage")
	}
	f.JoinedAgain(t)
	// Live, each host's come in its own order as it rejoins.
	got := map[string][]string{}
	for n := 0; n < 3*rounds; {
		select {
		case env := <-tail:
			if isTitle(env) {
				got[env.Host] = append(got[env.Host], env.Element.Value)
				n++
			}
		case <-tctx.Done():
			t.Fatalf("the tail that ran through the outage got only %v", got)
		}
	}
	for _, h := range hosts {
		for i := range rounds {
			if want := fmt.Sprintf("%s outage %d", h, i); len(got[h]) != rounds || got[h][i] != want {
				t.Fatalf("the tail that ran through the outage, from %s: %q, want %d in order", h, got[h], rounds)
			}
		}
	}

	// A new tail finds them in the hosts' histories.
	lastOfOutage := func(out []byte) bool {
		for _, h := range hosts {
			if !bytes.Contains(out, fmt.Appendf(nil, "%s outage %d", h, rounds-1)) {
				return true
			}
		}
		return false
	}
	out := tailWhile(t, lastOfOutage, append([]string{"tail", "notes.value_changed", "--since", "1m", "--json"}, hub...)...)
	dec := json.NewDecoder(strings.NewReader(out))
	replayed := func() api.Envelope {
		var env api.Envelope
		for dec.Decode(&env) == nil && !(isTitle(env) && strings.Contains(env.Element.Value, " outage ")) {
		}
		return env
	}
	inOrder(t, "tail --since 1m after the outage", rounds, "outage", replayed)

	// The stock nats CLI reads a host's history through the hub in the host's domain.
	cmd := exec.Command(testdaemon.NatsCLI(t), "--server", f.Hub.ClientURL, "--nkey", f.Hub.AdminSeedFile, "--js-domain", "h2",
		"stream", "info", "AXBUS_EVT_H2", "--json")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+t.TempDir())
	info, err := cmd.CombinedOutput()
	var stream struct{ State struct{ Messages int } }
	if err != nil || json.Unmarshal(info, &stream) != nil || stream.State.Messages < 2*rounds {
		t.Fatalf("nats --js-domain h2 stream info through the hub: %v %s", err, info)
	}
}

// inOrder takes rounds events of each host, set as "<host> <what> <round>", and fails unless they
// come in time order, every one once, round by round.
func inOrder(t *testing.T, what string, rounds int, kind string, next func() api.Envelope) {
	t.Helper()
	var last time.Time
	seen := map[string]bool{}
	for i := range 3 * rounds {
		env := next()
		if env.Time.Before(last) {
			t.Fatalf("%s: event %d (%s %q) is older than the one before it", what, i, env.Host, env.Element.Value)
		}
		last = env.Time
		var host, got string
		var round int
		if _, err := fmt.Sscanf(env.Element.Value, "%s %s %d", &host, &got, &round); err != nil || got != kind || host != env.Host || round != i/3 {
			t.Fatalf("%s: event %d is %s %q, want round %d of %s", what, i, env.Host, env.Element.Value, i/3, kind)
		}
		if seen[env.Element.Value] {
			t.Fatalf("%s: %q twice", what, env.Element.Value)
		}
		seen[env.Element.Value] = true
	}
}

// isTitle: the event is of the title the test sets (the simulated Notes also ticks a clock).
func isTitle(env api.Envelope) bool { return env.Element != nil && env.Element.Name == "Title" }
