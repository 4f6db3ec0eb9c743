package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer/sim"
)

// The web-accessibility ledger through the real nats CLI: two agents claim Notes' web
// accessibility, the first release leaves it on, the second switches it off; a bad request is
// refused at the edge.
func TestWebAccessibilityLedger(t *testing.T) {
	d := startTestDaemon(t)
	desk := d.Backend.(*sim.Desktop)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	subject := d.Subjects.Endpoint("web_accessibility")
	ask := func(body string) api.WebAccessibilityReply {
		t.Helper()
		out, err := d.natsRun(t, ctx, "req", "--raw", subject, body)
		if err != nil {
			t.Fatalf("%s: %v\n%s", body, err, out)
		}
		mustMatch(t, "web_accessibility.reply", []byte(out))
		return decode[api.WebAccessibilityReply](t, out)
	}
	ask(`{"app":"notes","on":true,"agent":"agent-a"}`)
	r := ask(`{"app":"notes","on":true,"agent":"agent-b"}`)
	if len(r.Ledger) != 1 || r.Ledger[0].PID != 501 || strings.Join(r.Ledger[0].Agents, ",") != "agent-a,agent-b" || !desk.WebAccessibilityOn(501) {
		t.Fatalf("after two claims: %+v, on %v", r, desk.WebAccessibilityOn(501))
	}
	ask(`{"app":"notes","on":false,"agent":"agent-a"}`)
	if !desk.WebAccessibilityOn(501) {
		t.Fatal("agent-a's release switched it off under agent-b")
	}
	if r = ask(`{"app":"notes","on":false,"agent":"agent-b"}`); len(r.Ledger) != 0 || desk.WebAccessibilityOn(501) {
		t.Fatalf("after the last release: %+v, on %v", r, desk.WebAccessibilityOn(501))
	}
	out, _ := d.natsRun(t, ctx, "req", "--raw", subject, `{"app":"notes","on":true}`)
	if !strings.Contains(out, "BAD_REQUEST") || !strings.Contains(out, "agent") {
		t.Fatalf("a claim without an agent: %s", out)
	}
}
