package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/observer/sim"
)

// The web-accessibility ledger through the real nats CLI: two identities claim Notes' web
// accessibility, the first release leaves it on, the second switches it off. The ledger names
// them as the server authenticated them: a request naming an agent is refused at the edge.
func TestWebAccessibilityLedger(t *testing.T) {
	d := startTestDaemon(t)
	desk := d.Backend.(*sim.Desktop)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	subject := d.Subjects.Endpoint("web_accessibility")
	seeds := map[string]string{"agent-a": d.AddIdentity(t, "agent-a", api.RoleAgent), "agent-b": d.AddIdentity(t, "agent-b", api.RoleAgent)}
	as := func(who, body string) (string, error) {
		cmd := exec.CommandContext(ctx, testdaemon.NatsCLI(t), "--server", d.Server.Info().URL, "--nkey", seeds[who], "req", "--raw", subject, body)
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	ask := func(who, body string) api.WebAccessibilityReply {
		t.Helper()
		out, err := as(who, body)
		if err != nil {
			t.Fatalf("%s: %v\n%s", body, err, out)
		}
		testdaemon.MustMatch(t, "web_accessibility.reply", []byte(out))
		return testdaemon.Decode[api.WebAccessibilityReply](t, out)
	}
	ask("agent-a", `{"app":"notes","on":true}`)
	r := ask("agent-b", `{"app":"notes","on":true}`)
	if len(r.Ledger) != 1 || r.Ledger[0].PID != 501 || strings.Join(r.Ledger[0].Agents, ",") != "agent-a,agent-b" || !desk.WebAccessibilityOn(501) {
		t.Fatalf("after two claims: %+v, on %v", r, desk.WebAccessibilityOn(501))
	}
	ask("agent-a", `{"app":"notes","on":false}`)
	if !desk.WebAccessibilityOn(501) {
		t.Fatal("agent-a's release switched it off under agent-b")
	}
	if r = ask("agent-b", `{"app":"notes","on":false}`); len(r.Ledger) != 0 || desk.WebAccessibilityOn(501) {
		t.Fatalf("after the last release: %+v, on %v", r, desk.WebAccessibilityOn(501))
	}
	out, _ := as("agent-a", `{"app":"notes","on":true,"agent":"agent-b"}`)
	if !strings.Contains(out, "BAD_REQUEST") || !strings.Contains(out, "agent") {
		t.Fatalf("a claim naming an agent: %s", out)
	}
}
