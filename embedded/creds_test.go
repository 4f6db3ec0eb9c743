package embedded

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nkeys"
)

// 4. The creds file is 0600, reused across restarts, refused when looser.
func TestCredsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "client.nk")

	s := startTest(t, dir)
	if s.CredsFile() != path {
		t.Errorf("CredsFile = %s", s.CredsFile())
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o, want 0600", fi.Mode().Perm())
	}
	pub1 := pubKey(t, path)
	shutdown(t, s)

	s = startTest(t, dir)
	if pub2 := pubKey(t, path); pub2 != pub1 {
		t.Errorf("public key changed across restart: %s -> %s", pub1, pub2)
	}
	nc, _, err := Connect(dir)
	if err != nil {
		t.Fatalf("Connect after restart: %v", err)
	}
	nc.Close()
	shutdown(t, s)

	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	s2, err := Start(WithStateDir(dir), WithListen("127.0.0.1:0"))
	if err == nil {
		shutdown(t, s2)
		t.Fatal("Start with a 0644 creds file succeeded")
	}
	var ice *InsecureCredsError
	if !errors.As(err, &ice) || ice.Path != path {
		t.Fatalf("err = %T %v, want *InsecureCredsError", err, err)
	}
	if !strings.Contains(suggestion(err), "chmod 600 "+path) {
		t.Errorf("suggestion %q", suggestion(err))
	}
	if held, _ := lockHeld(dir); held {
		t.Error("lock still held")
	}
	assertNoFile(t, filepath.Join(dir, "daemon.json"))
	if pubKey(t, path) != pub1 {
		t.Error("refused creds file was rewritten")
	}
}

func pubKey(t *testing.T, path string) string {
	t.Helper()
	kp, err := nkeys.ParseDecoratedUserNKey(readFile(t, path))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	return pub
}
