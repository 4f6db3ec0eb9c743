package testdaemon

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/nats-io/nats.go"
)

// Fleet is a hub on loopback and the desktops that joined it.
type Fleet struct {
	Hub      *embedded.Hub
	Dir      string
	Hosts    map[string]*daemon.Daemon
	Dirs     map[string]string
	Desktops map[string]daemon.Config // a host's desktop when it is not a simulated one
}

// StartFleet starts a hub with clients (name -> role and hosts) and a daemon per host joined to
// it: on the desktop desktops gives it, or else a simulated one.
func StartFleet(t *testing.T, hosts []string, clients map[string]daemon.HubClient, desktops map[string]daemon.Config) *Fleet {
	t.Helper()
	f := &Fleet{Dir: t.TempDir(), Hosts: map[string]*daemon.Daemon{}, Dirs: map[string]string{}, Desktops: desktops}
	for _, name := range slices.Sorted(maps.Keys(clients)) {
		c := clients[name]
		if _, err := daemon.AddHubClient(f.Dir, name, c.Role, c.Hosts); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := daemon.LoadHubClients(f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	f.Hub, err = embedded.StartHub(embedded.HubOptions{StateDir: f.Dir, Listen: "127.0.0.1:0", LeafListen: "127.0.0.1:0",
		Users: daemon.HubUsers("", loaded)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Hub.Shutdown)
	for _, h := range hosts {
		f.Dirs[h] = t.TempDir()
		f.Start(t, h)
	}
	f.Joined(t, len(hosts))
	return f
}

// Start starts host's daemon (again, on its state dir) joined to the hub.
func (f *Fleet) Start(t *testing.T, host string) {
	t.Helper()
	cfg, ok := f.Desktops[host]
	if !ok {
		cfg = daemon.Config{Backend: "sim", Desktop: "demo"}
	}
	cfg.StateDir, cfg.Listen, cfg.Host, cfg.HubURL, cfg.HubSeed = f.Dirs[host], "127.0.0.1:0", host, f.Hub.LeafURL, f.Hub.LeafSeedFile
	d, err := daemon.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.Hosts[host] = d
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = d.Close(ctx)
	})
}

// Joined waits until n hosts are leaves of the hub.
func (f *Fleet) Joined(t *testing.T, n int) {
	t.Helper()
	if !testkit.Within(10*time.Second, func() bool { return f.Hub.Leaves() == n }) {
		t.Fatalf("%d hosts joined the hub, want %d", f.Hub.Leaves(), n)
	}
}

// Client connects to the hub with a credential of its state dir.
func (f *Fleet) Client(t *testing.T, seed string) *nats.Conn {
	t.Helper()
	opt, err := nats.NkeyOptionFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(f.Hub.ClientURL, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// On is a client of host through nc.
func On(t *testing.T, nc *nats.Conn, host string) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.New(ctx, nc, client.WithHost(host), client.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// JoinedAgain starts the hub again where it was and waits until every host rejoined; while it
// was away each host still served its own clients.
func (f *Fleet) JoinedAgain(t *testing.T) {
	t.Helper()
	for h, d := range f.Hosts {
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
	hub, err := embedded.StartHub(embedded.HubOptions{StateDir: f.Dir, Listen: strings.TrimPrefix(f.Hub.ClientURL, "nats://"),
		LeafListen: strings.TrimPrefix(f.Hub.LeafURL, "nats://")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Shutdown)
	f.Hub = hub
	if !testkit.Within(20*time.Second, func() bool { return hub.Leaves() == len(f.Hosts) }) {
		t.Fatalf("%d of %d hosts rejoined the hub", hub.Leaves(), len(f.Hosts))
	}
	// A leaf's link is up a moment before its subscriptions reach the hub: each host's service
	// answers through it once they have.
	admin := f.Client(t, hub.AdminSeedFile)
	for h := range f.Hosts {
		c := On(t, admin, h)
		var err error
		if !testkit.Within(10*time.Second, func() bool {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			_, err = c.Apps(ctx)
			return err == nil
		}) {
			t.Fatalf("%s does not answer through the hub that came back: %v", h, err)
		}
	}
}
