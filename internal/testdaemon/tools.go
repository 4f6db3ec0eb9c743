package testdaemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nats-io/nkeys"
)

// ModuleRoot finds the directory of go.mod above the working directory.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found")
		}
		dir = parent
	}
}

// NatsCLI finds the real nats CLI that `make tools` installs.
func NatsCLI(t testing.TB) string {
	t.Helper()
	local := filepath.Join(ModuleRoot(t), ".tools", "bin", "nats")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	p, err := exec.LookPath("nats")
	if err != nil {
		t.Fatal("the nats CLI is missing: run `make tools` (make test does it)")
	}
	return p
}

// NatsRun runs the nats CLI against the daemon, with its own client key, and returns its
// combined output.
func (d *Daemon) NatsRun(t *testing.T, ctx context.Context, args ...string) (string, error) {
	t.Helper()
	info := d.Server.Info()
	full := append([]string{"--server", info.URL, "--nkey", info.CredsFile}, args...)
	cmd := exec.CommandContext(ctx, NatsCLI(t), full...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// built is the axbus binary of this test process, built once.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

// Axbus builds the axbus binary once per test process and returns its path.
func Axbus(t testing.TB) string {
	t.Helper()
	bin, err := BuildAxbus()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// BuildAxbus is Axbus for a TestMain: the binary built once per test process.
func BuildAxbus() (string, error) {
	built.once.Do(func() {
		var root string
		if root, built.err = moduleRoot(); built.err != nil {
			return
		}
		if built.dir, built.err = os.MkdirTemp("", "axbus-bin-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "axbus")
		cmd := exec.Command("go", "build", "-o", built.bin, "./cmd/axbus")
		cmd.Dir = root
		if built.out, built.err = cmd.CombinedOutput(); built.err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", built.err, built.out)
		}
	})
	return built.bin, built.err
}

// RemoveAxbus removes the binary Axbus built; a TestMain calls it after the tests.
func RemoveAxbus() {
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}

// NewNkey makes an nkey and writes its seed (0600) in a temp dir; it returns the seed file and
// the public key.
func NewNkey(t testing.TB, name string) (seedFile, pub string) {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := kp.Seed()
	pub, _ = kp.PublicKey()
	seedFile = filepath.Join(t.TempDir(), name+".nk")
	if err := os.WriteFile(seedFile, append(seed, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	return seedFile, pub
}
