package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
)

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
	if apps, err := testdaemon.On(t, nc, "h1").Apps(context.Background()); err != nil || len(apps) == 0 {
		t.Fatalf("apps of h1 over TLS through the hub: %v %v", apps, err)
	}
	if plain, err := nats.Connect(strings.Replace(hub.ClientURL, "tls://", "nats://", 1), seed, nats.MaxReconnects(0)); err == nil {
		plain.Close()
		t.Fatal("a plaintext client reached the TLS hub")
	}
}
