package embedded

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nkeys"
)

// A hub listener or a leaf link that other machines can reach needs TLS.
func TestFleetLinksOffLoopbackNeedTLS(t *testing.T) {
	if _, err := HubConfig(HubOptions{Listen: "0.0.0.0:4230"}, "UA", "UB"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("a plaintext hub on every interface: %v", err)
	}
	if _, err := HubConfig(HubOptions{LeafListen: "192.0.2.7:7422"}, "UA", "UB"); err == nil {
		t.Fatal("a plaintext leaf listener off loopback was configured")
	}
	text, err := HubConfig(HubOptions{Users: []HubAccess{{Name: "w", Nkey: "UW", Publish: []string{"ax.*.api.apps"}, Subscribe: []string{"_INBOX.>"}}}}, "UA", "UB")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`listen: "127.0.0.1:4230"`, `listen: "127.0.0.1:7422"`, `{nkey: "UB", allowed_connection_types: ["LEAFNODE"]}`,
		`permissions: {publish: {allow: ["ax.*.api.apps"]}, subscribe: {allow: ["_INBOX.>"]}}`} {
		if !strings.Contains(text, want) {
			t.Fatalf("the hub's configuration lacks %s:\n%s", want, text)
		}
	}

	kp, _ := nkeys.CreateUser()
	seed, _ := kp.Seed()
	file := filepath.Join(t.TempDir(), "leaf.nk")
	if err := writeFileAtomic(file, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := leafRemote(&Leaf{URL: "nats://192.0.2.7:7422", SeedFile: file}); err == nil || !strings.Contains(err.Error(), "TLS") {
		t.Fatalf("a plaintext link to another machine: %v", err)
	}
	if r, u, err := leafRemote(&Leaf{URL: "nats://127.0.0.1:7422", SeedFile: file, Role: "agent"}); err != nil || r.LocalAccount != HubUser || u.Name != HubUser {
		t.Fatalf("a loopback link: %v %+v", err, u)
	}
	if r, _, err := leafRemote(&Leaf{URL: "tls://hub.example:7422", SeedFile: file}); err != nil || !r.TLS {
		t.Fatalf("a TLS link: %v", err)
	}
}
