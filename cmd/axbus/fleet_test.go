package main

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testkit"
)

// fleet is a hub on loopback and the desktops that joined it.
type fleet struct {
	hub      *embedded.Hub
	dir      string
	hosts    map[string]*daemon.Daemon
	dirs     map[string]string
	desktops map[string]daemon.Config // a host's desktop when it is not a simulated one
}

// startFleet starts a hub with clients (name -> role and hosts) and a daemon per host joined to
// it: on the desktop desktops gives it, or else a simulated one.
func startFleet(t *testing.T, hosts []string, clients map[string]daemon.HubClient, desktops map[string]daemon.Config) *fleet {
	t.Helper()
	f := &fleet{dir: t.TempDir(), hosts: map[string]*daemon.Daemon{}, dirs: map[string]string{}, desktops: desktops}
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
	cfg, ok := f.desktops[host]
	if !ok {
		cfg = daemon.Config{Backend: "sim", Desktop: "demo"}
	}
	cfg.StateDir, cfg.Listen, cfg.Host, cfg.HubURL, cfg.HubSeed = f.dirs[host], "127.0.0.1:0", host, f.hub.LeafURL, f.hub.LeafSeedFile
	d, err := daemon.Start(cfg)
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
	if !testkit.Within(10*time.Second, func() bool { return f.hub.Leaves() == n }) {
		t.Fatalf("%d hosts joined the hub, want %d", f.hub.Leaves(), n)
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
func on(t *testing.T, nc *nats.Conn, host string) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.New(ctx, nc, client.WithHost(host), client.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return c
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
		c, err := client.New(context.Background(), nc)
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
	if !testkit.Within(20*time.Second, func() bool { return hub.Leaves() == len(f.hosts) }) {
		t.Fatalf("%d of %d hosts rejoined the hub", hub.Leaves(), len(f.hosts))
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
	testkit.Eventually(t, 10*time.Second, "the desktop joining the hub over TLS", func() bool { return hub.Leaves() == 1 })
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
