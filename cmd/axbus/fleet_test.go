package main

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
)

// fleet is a hub on loopback and the simulated desktops that joined it.
type fleet struct {
	hub   *embedded.Hub
	dir   string
	hosts map[string]*daemon.Daemon
	dirs  map[string]string
}

// startFleet starts a hub with clients (name -> role and hosts) and a daemon per host joined to it.
func startFleet(t *testing.T, hosts []string, clients map[string]daemon.HubClient) *fleet {
	t.Helper()
	f := &fleet{dir: t.TempDir(), hosts: map[string]*daemon.Daemon{}, dirs: map[string]string{}}
	for _, name := range slices.Sorted(maps.Keys(clients)) {
		c := clients[name]
		if _, err := daemon.AddHubClient(f.dir, name, c.Role, c.Hosts); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := daemon.LoadHubClients(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	f.hub, err = embedded.StartHub(embedded.HubOptions{StateDir: f.dir, Listen: "127.0.0.1:0", LeafListen: "127.0.0.1:0",
		Users: daemon.HubUsers("", loaded)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.hub.Shutdown)
	for _, h := range hosts {
		f.dirs[h] = t.TempDir()
		f.start(t, h)
	}
	f.joined(t, len(hosts))
	return f
}

// start starts host's daemon (again, on its state dir) joined to the hub.
func (f *fleet) start(t *testing.T, host string) {
	t.Helper()
	d, err := daemon.Start(daemon.Config{Backend: "sim", Desktop: "demo", StateDir: f.dirs[host], Listen: "127.0.0.1:0", Host: host,
		HubURL: f.hub.LeafURL, HubSeed: f.hub.LeafSeedFile})
	if err != nil {
		t.Fatal(err)
	}
	f.hosts[host] = d
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = d.Close(ctx)
	})
}

// joined waits until n hosts are leaves of the hub.
func (f *fleet) joined(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for f.hub.Leaves() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d hosts joined the hub, want %d", f.hub.Leaves(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// client connects to the hub with a credential of its state dir.
func (f *fleet) client(t *testing.T, seed string) *nats.Conn {
	t.Helper()
	opt, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(f.hub.ClientURL, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// on is a bus client of host through nc.
func on(t *testing.T, nc *nats.Conn, host string) *bus.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := bus.NewClient(ctx, nc, bus.WithHost(host), bus.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFleet: a hub and three desktops joined as leaf nodes on loopback. From a client of the
// hub: apps and an action with expect on each host; the hub's monitor cannot act anywhere, an
// agent limited to h1 cannot act on h2, both refused by the hub; a host that goes is
// UNAVAILABLE at once and rejoins by itself when it is back.
func TestFleet(t *testing.T) {
	hosts := []string{"h1", "h2", "h3"}
	f := startFleet(t, hosts, map[string]daemon.HubClient{
		"watcher": {Role: api.RoleMonitor},
		"one":     {Role: api.RoleAgent, Hosts: []string{"h1"}},
	})
	admin := f.client(t, f.hub.AdminSeedFile)
	ctx := context.Background()
	for _, h := range hosts {
		c := on(t, admin, h)
		apps, err := c.Apps(ctx)
		if err != nil || !slices.ContainsFunc(apps, func(a observer.App) bool { return a.Name == "Notes" }) {
			t.Fatalf("%s: apps %v %v", h, apps, err)
		}
		r, err := c.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Save", AppTarget: api.AppTarget{App: "Notes"},
			Expect: &api.WaitRequest{Expr: `text:"Saved"`}})
		if err != nil || r.Expect == nil || r.Expect.Outcome != api.WaitMet {
			t.Fatalf("%s: click with expect through the hub: %v %+v", h, err, r)
		}
		if r.Agent == nil || r.Agent.Name != embedded.HubUser || r.Agent.Role != api.RoleAgent {
			t.Fatalf("%s: the action's agent is %+v, want the hub's link with its role on the host", h, r.Agent)
		}
	}

	// A wait on h2 armed from the hub meets the change made the moment it listens: 200 of 200.
	c2, desk2 := on(t, admin, "h2"), f.hosts["h2"].Backend.(*sim.Desktop)
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
		_, err := on(t, nc, host).Act(ctx, "focus", api.ActionRequest{Locator: "role=button,name=Save", AppTarget: api.AppTarget{App: "Notes"}})
		return err
	}
	watcher := f.client(t, filepath.Join(f.dir, "watcher.nk"))
	if _, err := on(t, watcher, "h2").Apps(ctx); err != nil {
		t.Fatalf("the monitor observes: %v", err)
	}
	for _, h := range hosts {
		if err := act(watcher, h); err == nil {
			t.Fatalf("the hub's monitor acted on %s", h)
		}
	}
	one := f.client(t, filepath.Join(f.dir, "one.nk"))
	if err := act(one, "h1"); err != nil {
		t.Fatalf("the agent of h1 on h1: %v", err)
	}
	if err := act(one, "h2"); err == nil {
		t.Fatal("the agent limited to h1 acted on h2")
	}

	// h3 goes: a request to it fails at once (no responders), not after the timeout.
	ctx3, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.hosts["h3"].Close(ctx3); err != nil {
		t.Fatal(err)
	}
	f.joined(t, 2)
	if _, err := on(t, admin, "h2").Apps(ctx); err != nil { // the others go on
		t.Fatalf("h2 after h3 went: %v", err)
	}
	c3, err := bus.NewClient(ctx, admin, bus.WithHost("h3"), bus.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c3.Apps(ctx)
	took := time.Since(start)
	if observer.CodeOf(err) != observer.CodeUnavailable || took > 100*time.Millisecond {
		t.Fatalf("h3 gone: %v after %v, want UNAVAILABLE within 100 ms", err, took)
	}
	t.Logf("a request to a host that went: %s in %v", observer.CodeOf(err), took.Round(time.Microsecond))
	f.start(t, "h3")
	f.joined(t, 3)
	if apps, err := c3.Apps(ctx); err != nil || len(apps) == 0 {
		t.Fatalf("h3 rejoined: %v %v", apps, err)
	}

	out, errOut, code := runIn(t, "hosts", "-s", f.hub.ClientURL, "--nkey", f.hub.AdminSeedFile, "--wait", "300ms")
	if hosts := decode[struct{ Hosts []bus.Host }](t, out).Hosts; code != 0 || len(hosts) != 3 || hosts[0].Host != "h1" || hosts[2].Host != "h3" {
		t.Fatalf("axbus hosts through the hub: exit %d %s%s", code, out, errOut)
	}
	out, errOut, code = runIn(t, "apps", "--host", "*", "-s", f.hub.ClientURL, "--nkey", f.hub.AdminSeedFile)
	fleetApps := decode[struct {
		Hosts []struct {
			Host string
			Apps []observer.App
		}
	}](t, out).Hosts
	if code != 0 || len(fleetApps) != 3 || fleetApps[1].Host != "h2" || !slices.ContainsFunc(fleetApps[1].Apps, func(a observer.App) bool { return a.Name == "Notes" }) {
		t.Fatalf("axbus apps --host '*' through the hub: exit %d %s%s", code, out, errOut)
	}

	// The hub goes and comes back on the same ports: the hosts rejoin by themselves, and serve
	// their local clients meanwhile.
	f.hub.Shutdown()
	f.joinedAgain(t)
	if apps, err := on(t, f.client(t, f.hub.AdminSeedFile), "h1").Apps(ctx); err != nil || len(apps) == 0 {
		t.Fatalf("h1 after the hub came back: %v %v", apps, err)
	}
}

// joinedAgain starts the hub again where it was and waits until every host rejoined; while it
// was away each host still served its own clients.
func (f *fleet) joinedAgain(t *testing.T) {
	t.Helper()
	for h, d := range f.hosts {
		nc, _, err := embedded.Connect(d.Server.StateDir())
		if err != nil {
			t.Fatal(err)
		}
		c, err := bus.NewClient(context.Background(), nc)
		if err == nil {
			_, err = c.Apps(context.Background())
		}
		nc.Close()
		if err != nil {
			t.Fatalf("%s without its hub: %v", h, err)
		}
	}
	hub, err := embedded.StartHub(embedded.HubOptions{StateDir: f.dir, Listen: strings.TrimPrefix(f.hub.ClientURL, "nats://"),
		LeafListen: strings.TrimPrefix(f.hub.LeafURL, "nats://")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Shutdown)
	f.hub = hub
	deadline := time.Now().Add(20 * time.Second)
	for hub.Leaves() != len(f.hosts) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d hosts rejoined the hub", hub.Leaves(), len(f.hosts))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHubCommands: hub creds makes a credential limited to its hosts; hub config prints the
// nats-server configuration with it; serve refuses a plaintext hub on another machine.
func TestHubCommands(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runIn(t, "hub", "creds", "ci", "--role", "agent", "--hosts", "h1", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, filepath.Join(dir, "ci.nk")) {
		t.Fatalf("hub creds: exit %d %s%s", code, out, errOut)
	}
	out, errOut, code = runIn(t, "hub", "config", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "leafnodes") || !strings.Contains(out, `"ax.h1.api.click"`) || strings.Contains(out, `"ax.h2.api`) {
		t.Fatalf("hub config: exit %d %s%s", code, out, errOut)
	}
	if _, _, code = runIn(t, "hub", "creds", "ci", "--state-dir", dir); code != exitUsage {
		t.Fatalf("the same client twice: exit %d", code)
	}
	_, errOut, code = runIn(t, "serve", "--state-dir", t.TempDir(), "--backend", "sim", "--listen", "127.0.0.1:0",
		"--hub", "nats://192.0.2.7:7422", "--hub-nkey", filepath.Join(dir, "ci.nk"))
	if code == 0 || !strings.Contains(errOut, "TLS") {
		t.Fatalf("serve joining a plaintext hub on another machine: exit %d %s", code, errOut)
	}
}

// TestFleetOverTLS: hub init makes a CA and the hub's certificate; a desktop joins the hub over
// tls:// trusting the CA, and a client of the hub reaches it over TLS; a plaintext client is
// refused.
func TestFleetOverTLS(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runIn(t, "hub", "init", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "--hub-ca") {
		t.Fatalf("hub init: exit %d %s%s", code, out, errOut)
	}
	if _, _, code := runIn(t, "hub", "init", "--state-dir", dir); code == 0 {
		t.Fatal("hub init overwrote the hub's certificates")
	}
	ca := filepath.Join(dir, embedded.HubCAFile)
	hub, err := embedded.StartHub(embedded.HubOptions{StateDir: dir, Listen: "127.0.0.1:0", LeafListen: "127.0.0.1:0",
		TLSCert: filepath.Join(dir, embedded.HubCertFile), TLSKey: filepath.Join(dir, embedded.HubKeyFile)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Shutdown)
	if !strings.HasPrefix(hub.LeafURL, "tls://") || !strings.HasPrefix(hub.ClientURL, "tls://") {
		t.Fatalf("the hub's URLs: %s %s", hub.ClientURL, hub.LeafURL)
	}
	d, err := daemon.Start(daemon.Config{Backend: "sim", Desktop: "demo", StateDir: t.TempDir(), Listen: "127.0.0.1:0", Host: "h1",
		HubURL: hub.LeafURL, HubSeed: hub.LeafSeedFile, HubCA: ca})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = d.Close(ctx)
	})
	for deadline := time.Now().Add(10 * time.Second); hub.Leaves() != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the desktop did not join the hub over TLS")
		}
	}
	seed, err := nats.NkeyOptionFromSeed(hub.AdminSeedFile)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(hub.ClientURL, seed, nats.RootCAs(ca))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if apps, err := on(t, nc, "h1").Apps(context.Background()); err != nil || len(apps) == 0 {
		t.Fatalf("apps of h1 over TLS through the hub: %v %v", apps, err)
	}
	if plain, err := nats.Connect(strings.Replace(hub.ClientURL, "tls://", "nats://", 1), seed, nats.MaxReconnects(0)); err == nil {
		plain.Close()
		t.Fatal("a plaintext client reached the TLS hub")
	}
}
