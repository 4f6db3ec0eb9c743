package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/daemon"
	"github.com/axbus/axbus/internal/testcert"
	"github.com/axbus/axbus/internal/testdaemon"
)

// natsContexts is a config dir of the nats CLI, made by the real nats CLI, that axbus reads.
type natsContexts struct{ config, home string }

// newNatsContexts points axbus at a fresh config dir of the nats CLI and clears the NATS_*
// variables, so that only what the test sets counts.
func newNatsContexts(t *testing.T) *natsContexts {
	t.Helper()
	c := &natsContexts{config: t.TempDir(), home: t.TempDir()}
	t.Setenv("XDG_CONFIG_HOME", c.config)
	for _, v := range []string{"NATS_URL", "NATS_CONTEXT", "NATS_NKEY", "NATS_CREDS", "NATS_CA", "NATS_CERT", "NATS_KEY"} {
		t.Setenv(v, "")
	}
	return c
}

// nats runs the nats CLI on the config dir and fails unless it exits 0.
func (c *natsContexts) nats(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(testdaemon.NatsCLI(t), args...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+c.config, "HOME="+c.home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nats %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// appsAs runs axbus apps with args and fails unless it lists the demo's two apps.
func appsAs(t *testing.T, args ...string) {
	t.Helper()
	out, errOut, code := runIn(t, append([]string{"apps"}, args...)...)
	if code != 0 || len(testdaemon.Decode[api.AppsReply](t, out).Apps) != 2 {
		t.Fatalf("axbus apps %s: exit %d: %s%s", strings.Join(args, " "), code, out, errOut)
	}
}

// isMonitor says whether axbus with args connects as a monitor: apps answers, creds ls is refused.
func isMonitor(t *testing.T, args ...string) bool {
	t.Helper()
	appsAs(t, args...)
	_, _, code := runIn(t, append([]string{"creds", "ls"}, args...)...)
	return code == model.CodePermissionDenied.Info().Exit
}

// TestNatsCLIContexts: axbus reads the contexts the nats CLI saves as the nats CLI does: the
// selected one (nats context select) without --context, NATS_NKEY and the other variables over
// the context's fields, flags over both, the credentials a context embeds (--embed) or names in
// a variable (env://).
func TestNatsCLIContexts(t *testing.T) {
	d := startTestDaemon(t)
	info := d.Server.Info()
	mon := d.AddIdentity(t, "mon", api.RoleMonitor)
	c := newNatsContexts(t)

	c.nats(t, "context", "add", "desk", "--server", info.URL, "--nkey", mon, "--select")
	if !isMonitor(t) {
		t.Fatal("without --context, axbus did not connect as the selected context's mon")
	}
	if isMonitor(t, "--state-dir", d.Dir) {
		t.Error("--state-dir did not name the local daemon over the selected context")
	}
	// An MCP client starts its server in an environment of its own: the selection is pinned.
	out, errOut, code := runIn(t, "mcp", "config", "--client", "cursor")
	entry := testdaemon.Decode[struct {
		Servers map[string]struct{ Args []string } `json:"mcpServers"`
	}](t, out).Servers["axbus"]
	if code != 0 || !strings.Contains(strings.Join(entry.Args, " "), "--context desk") {
		t.Errorf("mcp config with a selected context: exit %d: %v %s", code, entry.Args, errOut)
	}
	// The variables win over the context, the flags over the variables.
	t.Setenv("NATS_NKEY", info.CredsFile)
	if isMonitor(t) {
		t.Error("NATS_NKEY (the owner's key) did not win over the context's nkey (mon's)")
	}
	if !isMonitor(t, "--nkey", mon) {
		t.Error("--nkey did not win over NATS_NKEY")
	}
	t.Setenv("NATS_NKEY", "")

	c.nats(t, "context", "add", "owner", "--server", info.URL, "--nkey", info.CredsFile)
	if isMonitor(t, "--context", "owner") {
		t.Error("--context owner did not win over the selected context")
	}
	t.Setenv("NATS_CONTEXT", "owner")
	if isMonitor(t) {
		t.Error("NATS_CONTEXT=owner did not win over the selected context")
	}
	t.Setenv("NATS_CONTEXT", "")

	c.nats(t, "context", "add", "embedded", "--server", info.URL, "--nkey", mon, "--embed")
	if saved, _ := os.ReadFile(filepath.Join(c.config, "nats", "context", "embedded.json")); !strings.Contains(string(saved), `"nkey": "data:`) {
		t.Fatalf("nats context add --embed did not embed the seed:\n%s", saved)
	}
	if !isMonitor(t, "--context", "embedded") {
		t.Error("the context that embeds mon's seed did not connect as mon")
	}
	seed, err := os.ReadFile(mon)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AXBUS_TEST_SEED", string(seed))
	c.nats(t, "context", "add", "inenv", "--server", info.URL, "--nkey", "env://AXBUS_TEST_SEED")
	if !isMonitor(t, "--context", "inenv") {
		t.Error("the context whose seed is in a variable did not connect as mon")
	}

	// A JWT and seed of their own (nats context add --jwt --seed) are refused, not ignored.
	c.nats(t, "context", "add", "jwt", "--server", info.URL, "--jwt", mon, "--seed", mon)
	if _, errOut, code := runIn(t, "apps", "--context", "jwt"); code != exitUsage || !strings.Contains(errOut, "user_jwt") {
		t.Errorf("a context with user_jwt and user_seed: exit %d: %s", code, errOut)
	}

	// A selected context that is gone is an error, not the local daemon.
	if err := os.Remove(filepath.Join(c.config, "nats", "context", "desk.json")); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runIn(t, "apps"); code != exitUsage || !strings.Contains(errOut, `"desk"`) {
		t.Errorf("a selected context that is gone: exit %d: %s", code, errOut)
	}
}

// TestNatsCLIContextTLS: a context's CA, or NATS_CA, is what axbus trusts for a tls:// server,
// and its client certificate (NATS_CERT and NATS_KEY) is what it presents.
func TestNatsCLIContextTLS(t *testing.T) {
	certFile, keyFile := testcert.Write(t, t.TempDir())
	d := startSimDaemon(t, daemon.Config{Desktop: "demo", TLSCert: certFile, TLSKey: keyFile})
	info := d.Server.Info()
	if !strings.HasPrefix(info.URL, "tls://") {
		t.Fatalf("the daemon's URL is %s, want tls://", info.URL)
	}
	mon := d.AddIdentity(t, "mon", api.RoleMonitor)
	c := newNatsContexts(t)

	c.nats(t, "context", "add", "roots", "--server", info.URL, "--nkey", mon)
	if _, errOut, code := runIn(t, "apps", "--context", "roots"); code == 0 || !strings.Contains(errOut, "certificate") {
		t.Fatalf("a context without the CA: exit %d: %s (want the system's roots to refuse the certificate)", code, errOut)
	}
	t.Setenv("NATS_CA", certFile)
	appsAs(t, "--context", "roots")
	t.Setenv("NATS_CA", "")

	c.nats(t, "context", "add", "pinned", "--server", info.URL, "--nkey", mon, "--tlsca", certFile,
		"--tlscert", certFile, "--tlskey", keyFile)
	appsAs(t, "--context", "pinned")
	// The client certificate is loaded: one that is no certificate fails.
	t.Setenv("NATS_CERT", mon)
	if _, errOut, code := runIn(t, "apps", "--context", "pinned"); code == 0 || !strings.Contains(errOut, "certificate") {
		t.Errorf("NATS_CERT of a file that is no certificate: exit %d: %s", code, errOut)
	} else {
		t.Logf("NATS_CERT of a file that is no certificate: %s", errOut)
	}
	t.Setenv("NATS_CERT", "")
	if _, errOut, code := runIn(t, "apps", "--context", "roots", "--tls-cert", certFile); code != exitUsage || !strings.Contains(errOut, "--tls-key") {
		t.Errorf("--tls-cert without --tls-key: exit %d: %s", code, errOut)
	}
}
