// Package testdaemon starts real daemons for tests (embedded NATS, JetStream, the micro service)
// on the simulated desktop or a headless one, each in a private state dir on a free port, and
// holds the tools tests drive them with: the daemon's own connection and client, identities,
// the real nats CLI, the axbus binary, schema checks of what they print.
package testdaemon

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
)

// Daemon is a real daemon in the private state dir Dir, stopped when its test ends.
type Daemon struct {
	*daemon.Daemon
	Dir string
}

// StartDemo starts a daemon on the simulated demo desktop.
func StartDemo(t *testing.T) *Daemon {
	t.Helper()
	return StartSim(t, daemon.Config{Desktop: "demo"})
}

// StartSim starts a daemon on the simulated desktop with cfg.
func StartSim(t *testing.T, cfg daemon.Config) *Daemon {
	t.Helper()
	cfg.Backend = "sim"
	return Start(t, cfg)
}

// Start starts a daemon with cfg in a fresh state dir on a free port, host testhost, and stops
// it when the test ends (unless the test closed it already).
func Start(t *testing.T, cfg daemon.Config) *Daemon {
	t.Helper()
	dir := t.TempDir()
	cfg.StateDir, cfg.Listen, cfg.Host = dir, "127.0.0.1:0", "testhost"
	d, err := daemon.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Errorf("daemon close: %v", err)
		}
	})
	return &Daemon{Daemon: d, Dir: dir}
}

// Connect is a connection of the daemon's own client key, closed with the test.
func (d *Daemon) Connect(t *testing.T) *nats.Conn {
	t.Helper()
	nc, _, err := embedded.Connect(d.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// Client is a client on nc.
func Client(t *testing.T, nc *nats.Conn) *client.Client {
	t.Helper()
	c, err := client.New(context.Background(), nc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// AddIdentity adds an identity of role to the daemon's server and returns its nkey seed file.
func (d *Daemon) AddIdentity(t *testing.T, name, role string) string {
	t.Helper()
	seedFile, pub := NewNkey(t, name)
	if err := d.Server.AddUser(embedded.User{Name: name, Role: role, Nkey: pub}); err != nil {
		t.Fatal(err)
	}
	return seedFile
}
