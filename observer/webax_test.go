package observer_test

import (
	"context"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
)

// A ledger over the simulated desktop, on a clock the test moves.
func ledger(t *testing.T) (*observer.Ledger, *sim.Desktop, *time.Time) {
	t.Helper()
	d := fixtureDesktop(t, "demo")
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	return observer.NewLedger(d, observer.LedgerClock(func() time.Time { return now })), d, &now
}

const mail = 502

func TestLedgerCountsAgents(t *testing.T) {
	l, d, _ := ledger(t)
	ctx := context.Background()
	if err := l.Enable(ctx, notes, "agent-a"); err != nil {
		t.Fatal(err)
	}
	if err := l.Enable(ctx, notes, "agent-b"); err != nil {
		t.Fatal(err)
	}
	if !d.WebAccessibilityOn(notes) {
		t.Fatal("Enable did not switch web accessibility on")
	}
	if err := l.Release(ctx, notes, "agent-a"); err != nil {
		t.Fatal(err)
	}
	if !d.WebAccessibilityOn(notes) {
		t.Fatal("one agent's release pulled web accessibility from under the other")
	}
	if err := l.Release(ctx, notes, "agent-b"); err != nil {
		t.Fatal(err)
	}
	if d.WebAccessibilityOn(notes) {
		t.Fatal("the last release did not restore web accessibility")
	}
	if len(l.Entries()) != 0 {
		t.Fatalf("entries left: %+v", l.Entries())
	}
}

func TestLedgerNeverSwitchesOffWhatWasOn(t *testing.T) {
	l, d, _ := ledger(t)
	ctx := context.Background()
	if _, err := d.SetWebAccessibility(ctx, mail, true); err != nil { // the user had it on
		t.Fatal(err)
	}
	if err := l.Enable(ctx, mail, "agent-a"); err != nil {
		t.Fatal(err)
	}
	if e := l.Entries(); len(e) != 1 || !e[0].WasOn || e[0].Agents[0] != "agent-a" {
		t.Fatalf("entries %+v", e)
	}
	if err := l.Release(ctx, mail, "agent-a"); err != nil {
		t.Fatal(err)
	}
	if !d.WebAccessibilityOn(mail) {
		t.Fatal("the ledger switched off web accessibility it had not switched on")
	}
}

func TestLedgerRestoresAfterIdleMinutes(t *testing.T) {
	l, d, now := ledger(t)
	ctx := context.Background()
	_ = l.Enable(ctx, notes, "agent-a")
	_ = l.Enable(ctx, notes, "agent-b")
	*now = now.Add(6 * time.Minute)
	l.Touch(notes, "agent-b") // b keeps working, a went quiet
	*now = now.Add(5 * time.Minute)
	if err := l.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if e := l.Entries(); len(e) != 1 || len(e[0].Agents) != 1 || e[0].Agents[0] != "agent-b" || !d.WebAccessibilityOn(notes) {
		t.Fatalf("after 11 minutes: %+v, on %v", e, d.WebAccessibilityOn(notes))
	}
	*now = now.Add(10 * time.Minute)
	if err := l.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if d.WebAccessibilityOn(notes) || len(l.Entries()) != 0 {
		t.Fatal("10 idle minutes did not restore web accessibility")
	}
}

func TestLedgerErrors(t *testing.T) {
	l, d, _ := ledger(t)
	ctx := context.Background()
	if err := l.Enable(ctx, notes, ""); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("no agent: %v", err)
	}
	if err := l.Enable(ctx, 9999, "a"); model.CodeOf(err) != model.CodeAppNotFound || model.AsError(err).Suggestion == "" {
		t.Fatalf("no such app: %v", err)
	}
	// An app that exits while claimed: releasing it is no error, and it is forgotten.
	_ = l.Enable(ctx, notes, "a")
	if err := d.Kill(notes); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(ctx, notes, "a"); err != nil || len(l.Entries()) != 0 {
		t.Fatalf("release of a dead app: %v %+v", err, l.Entries())
	}
}
