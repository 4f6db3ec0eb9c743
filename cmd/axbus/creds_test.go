package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
)

// credsAddReply is what creds add prints with --json.
type credsAddReply struct {
	Users    []api.User `json:"users"`
	NkeyFile string     `json:"nkey_file"`
}

// credsCLI runs axbus creds with args against the daemon (d.cli puts --state-dir after creds,
// which takes no flags of its own).
func credsCLI(t *testing.T, d *testDaemon, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runIn(t, append(append([]string{"creds"}, args...), "--state-dir", d.Dir)...)
}

// TestCredsAddKeepsTheSeedInTheStateDir: creds add writes the secret seed into the state dir's
// creds folder (0700, the seed 0600), never the working directory, and prints where; --out
// writes it elsewhere; creds rm removes the seed it kept, so the name can be made again.
func TestCredsAddKeepsTheSeedInTheStateDir(t *testing.T) {
	d := startTestDaemon(t)
	work := t.TempDir() // as a git checkout would be
	t.Chdir(work)

	out, errOut, code := credsCLI(t, d, "add", "mon", "--role", "monitor", "--json")
	if code != 0 {
		t.Fatalf("creds add mon: exit %d: %s", code, errOut)
	}
	seed := testdaemon.Decode[credsAddReply](t, out).NkeyFile
	if want := filepath.Join(d.Dir, "creds", "mon.nk"); seed != want {
		t.Fatalf("the seed went to %q, want %q", seed, want)
	}
	if left, _ := os.ReadDir(work); len(left) != 0 {
		t.Fatalf("creds add wrote into the working directory: %v", left)
	}
	mode := func(path string) os.FileMode {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if m := mode(seed); m != 0o600 {
		t.Errorf("the seed's mode is %04o, want 0600", m)
	}
	if m := mode(filepath.Dir(seed)); m != 0o700 {
		t.Errorf("the creds folder's mode is %04o, want 0700", m)
	}
	// The seed is mon's: the daemon takes it, as a monitor.
	if _, errOut, code := credsCLI(t, d, "ls", "--nkey", seed); code != model.CodePermissionDenied.Info().Exit {
		t.Errorf("creds ls as mon: exit %d %s, want PERMISSION_DENIED", code, errOut)
	}

	elsewhere := filepath.Join(t.TempDir(), "bot.nk")
	out, errOut, code = credsCLI(t, d, "add", "bot", "--role", "agent", "--out", elsewhere, "--json")
	if code != 0 || testdaemon.Decode[credsAddReply](t, out).NkeyFile != elsewhere {
		t.Fatalf("creds add bot --out %s: exit %d: %s%s", elsewhere, code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(d.Dir, "creds", "bot.nk")); !os.IsNotExist(err) {
		t.Errorf("creds add --out wrote into the creds folder too: %v", err)
	}

	out, errOut, code = credsCLI(t, d, "rm", "mon", "--json")
	if code != 0 || !strings.Contains(out, `"nkey_file_removed":"`+seed+`"`) {
		t.Fatalf("creds rm mon: exit %d: %s%s", code, out, errOut)
	}
	if _, err := os.Stat(seed); !os.IsNotExist(err) {
		t.Errorf("creds rm left the seed it kept: %v", err)
	}
	if _, errOut, code := credsCLI(t, d, "add", "mon", "--role", "monitor"); code != 0 {
		t.Errorf("creds add mon after its rm: exit %d: %s", code, errOut)
	}
	// A seed not kept by creds add (bot's, written elsewhere) is the user's to remove.
	if out, errOut, code := credsCLI(t, d, "rm", "bot", "--json"); code != 0 || strings.Contains(out, "nkey_file_removed") {
		t.Fatalf("creds rm bot: exit %d: %s%s", code, out, errOut)
	}
	if _, err := os.Stat(elsewhere); err != nil {
		t.Errorf("creds rm removed a seed of --out: %v", err)
	}
}

// TestCredsRmKeepsAnotherKeysSeed: the creds folder's seed of a name is removed only when it is
// the removed identity's key (the same name on another daemon is another key).
func TestCredsRmKeepsAnotherKeysSeed(t *testing.T) {
	d := startTestDaemon(t)
	d.AddIdentity(t, "mon", api.RoleMonitor)
	other, _ := testdaemon.NewNkey(t, "other")
	kept := filepath.Join(d.Dir, "creds", "mon.nk")
	if err := os.MkdirAll(filepath.Dir(kept), 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kept, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := credsCLI(t, d, "rm", "mon", "--json"); code != 0 || strings.Contains(out, "nkey_file_removed") {
		t.Fatalf("creds rm mon: exit %d: %s%s", code, out, errOut)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("creds rm removed another key's seed: %v", err)
	}
}

// TestNkeyWithTheLocalDaemon: --nkey (or NATS_NKEY) without a server talks to the local daemon
// (its state dir's daemon.json names the URL) as the nkey's identity, not as the owner.
func TestNkeyWithTheLocalDaemon(t *testing.T) {
	d := startTestDaemon(t)
	mon := d.AddIdentity(t, "mon", api.RoleMonitor)

	out, errOut, code := d.cli(t, "apps", "--nkey", mon)
	if code != 0 || len(testdaemon.Decode[api.AppsReply](t, out).Apps) != 2 {
		t.Fatalf("apps --nkey mon.nk: exit %d: %s%s", code, out, errOut)
	}
	// As mon, a monitor: the owner's key was not used.
	if _, errOut, code := credsCLI(t, d, "ls", "--nkey", mon); code != model.CodePermissionDenied.Info().Exit {
		t.Errorf("creds ls --nkey mon.nk: exit %d %s, want PERMISSION_DENIED", code, errOut)
	}
	stranger, _ := testdaemon.NewNkey(t, "stranger")
	_, errOut, code = d.cli(t, "apps", "--nkey", stranger)
	if code != model.CodePermissionDenied.Info().Exit || !strings.Contains(errOut, "does not know these credentials") {
		t.Errorf("apps --nkey of no identity: exit %d: %s", code, errOut)
	}

	t.Setenv("NATS_NKEY", mon)
	if _, errOut, code := credsCLI(t, d, "ls"); code != model.CodePermissionDenied.Info().Exit {
		t.Errorf("creds ls with NATS_NKEY=mon.nk: exit %d %s, want PERMISSION_DENIED", code, errOut)
	}
}
