package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/observer/sim"
)

// TestFleet: a hub and three desktops joined as leaf nodes on loopback, h1 the headless AT-SPI
// desktop with the GTK3 fixture, h2 and h3 simulated ones. From a client of the hub: apps and an
// action with expect on each host; a wait armed on h2 from the hub misses nothing; the hub's monitor cannot act anywhere, an
// agent limited to h1 cannot act on h2, both refused by the hub; a host that goes is
// UNAVAILABLE at once and rejoins by itself when it is back.
func TestFleet(t *testing.T) {
	hosts := []string{"h1", "h2", "h3"}
	f := testdaemon.StartFleet(t, hosts, map[string]daemon.HubClient{
		"watcher": {Role: api.RoleMonitor},
		"one":     {Role: api.RoleAgent, Hosts: []string{"h1"}},
	}, map[string]daemon.Config{"h1": atspiDesktop(t)})
	appOf := map[string]string{"h1": "axbus-fixture-gtk3", "h2": "Notes", "h3": "Notes"}
	admin := f.Client(t, f.Hub.AdminSeedFile)
	ctx := context.Background()
	for _, h := range hosts {
		c := testdaemon.On(t, admin, h)
		apps, err := c.Apps(ctx)
		if err != nil || !slices.ContainsFunc(apps, func(a model.App) bool { return a.Name == appOf[h] }) {
			t.Fatalf("%s: apps %v %v", h, apps, err)
		}
		r, err := c.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Save", AppTarget: api.AppTarget{App: appOf[h]},
			Expect: &api.WaitRequest{Expr: `text:"Saved"`}})
		if err != nil || r.Expect == nil || r.Expect.Outcome != api.WaitMet {
			t.Fatalf("%s: click with expect through the hub: %v %+v", h, err, r)
		}
		if r.Agent == nil || r.Agent.Name != embedded.HubUser || r.Agent.Role != api.RoleAgent {
			t.Fatalf("%s: the action's agent is %+v, want the hub's link with its role on the host", h, r.Agent)
		}
	}

	// A wait on h2 armed from the hub meets the change made the moment it listens: 200 of 200.
	c2, desk2 := testdaemon.On(t, admin, "h2"), f.Hosts["h2"].Backend.(*sim.Desktop)
	for i := range 200 {
		value := fmt.Sprintf("note %d", i)
		w, err := c2.WaitAfter(ctx, api.WaitRequest{Expr: fmt.Sprintf(`element:name=Title,value=%q`, value), AppTarget: api.AppTarget{App: "Notes"}},
			func(context.Context) error { return desk2.SetValue(501, "title", value) })
		if err != nil || w.Outcome != api.WaitMet {
			t.Fatalf("wait %d of 200 armed from the hub: %v %+v", i+1, err, w)
		}
	}

	act := func(nc *nats.Conn, host string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, err := testdaemon.On(t, nc, host).Act(ctx, "focus", api.ActionRequest{Locator: "role=button,name=Save", AppTarget: api.AppTarget{App: appOf[host]}})
		return err
	}
	watcher := f.Client(t, filepath.Join(f.Dir, "watcher.nk"))
	if _, err := testdaemon.On(t, watcher, "h2").Apps(ctx); err != nil {
		t.Fatalf("the monitor observes: %v", err)
	}
	for _, h := range hosts {
		if err := act(watcher, h); err == nil {
			t.Fatalf("the hub's monitor acted on %s", h)
		}
	}
	one := f.Client(t, filepath.Join(f.Dir, "one.nk"))
	if err := act(one, "h1"); err != nil {
		t.Fatalf("the agent of h1 on h1: %v", err)
	}
	if err := act(one, "h2"); err == nil {
		t.Fatal("the agent limited to h1 acted on h2")
	}

	// h3 goes: a request to it fails at once (no responders), not after the timeout.
	ctx3, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.Hosts["h3"].Close(ctx3); err != nil {
		t.Fatal(err)
	}
	f.Joined(t, 2)
	if _, err := testdaemon.On(t, admin, "h2").Apps(ctx); err != nil { // the others go on
		t.Fatalf("h2 after h3 went: %v", err)
	}
	c3, err := client.New(ctx, admin, client.WithHost("h3"), client.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c3.Apps(ctx)
	took := time.Since(start)
	// At once, not after the client's 5 s timeout: a second of slack for a loaded machine.
	if model.CodeOf(err) != model.CodeUnavailable || took > time.Second {
		t.Fatalf("h3 gone: %v after %v, want UNAVAILABLE at once (within 1 s; the timeout is 5 s)", err, took)
	}
	t.Logf("a request to a host that went: %s in %v", model.CodeOf(err), took.Round(time.Microsecond))
	bootBefore := f.Hosts["h3"].Pub.Boot()
	f.Start(t, "h3")
	f.Joined(t, 3)
	if apps, err := c3.Apps(ctx); err != nil || len(apps) == 0 {
		t.Fatalf("h3 rejoined: %v %v", apps, err)
	}
	// Its history is there: the events of its previous run (the save above), read through the hub.
	kept, err := c3.EventsAfter(ctx, 0, 1000, 0, client.TailOptions{})
	if err != nil || !slices.ContainsFunc(kept.Events, func(e client.SequencedEvent) bool { return e.Event.Boot == bootBefore }) {
		t.Fatalf("h3's history after it rejoined: %+v, none of its run %s: %v", kept, bootBefore, err)
	}

	out, errOut, code := runIn(t, "hosts", "-s", f.Hub.ClientURL, "--nkey", f.Hub.AdminSeedFile, "--wait", "2s")
	if hosts := testdaemon.Decode[struct{ Hosts []client.Host }](t, out).Hosts; code != 0 || len(hosts) != 3 || hosts[0].Host != "h1" || hosts[2].Host != "h3" {
		t.Fatalf("axbus hosts through the hub: exit %d %s%s", code, out, errOut)
	}
	out, errOut, code = runIn(t, "apps", "--host", "*", "-s", f.Hub.ClientURL, "--nkey", f.Hub.AdminSeedFile)
	fleetApps := testdaemon.Decode[struct {
		Hosts []struct {
			Host string
			Apps []model.App
		}
	}](t, out).Hosts
	if code != 0 || len(fleetApps) != 3 || fleetApps[1].Host != "h2" || !slices.ContainsFunc(fleetApps[1].Apps, func(a model.App) bool { return a.Name == "Notes" }) {
		t.Fatalf("axbus apps --host '*' through the hub: exit %d %s%s", code, out, errOut)
	}

	// The hub goes and comes back on the same ports: the hosts rejoin by themselves, and serve
	// their local clients meanwhile.
	f.Hub.Shutdown()
	f.JoinedAgain(t)
	if apps, err := testdaemon.On(t, f.Client(t, f.Hub.AdminSeedFile), "h1").Apps(ctx); err != nil || len(apps) == 0 {
		t.Fatalf("h1 after the hub came back: %v %v", apps, err)
	}
}

// atspiDesktop is a headless AT-SPI desktop running the GTK3 fixture, as a daemon's config.
func atspiDesktop(t *testing.T) daemon.Config {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sess := testdaemon.StartHeadless(t, ctx)
	if _, err := sess.StartApp(ctx, headless.KindGTK3); err != nil {
		t.Fatal(err)
	}
	return testdaemon.SessionConfig(sess)
}
