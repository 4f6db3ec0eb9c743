package observer

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/axbus/axbus/model"
)

// LedgerIdle is how long an agent's claim on an app's web accessibility lasts without use.
const LedgerIdle = 10 * time.Minute

// Ledger remembers which apps the host switched web accessibility on for, and for which
// agents. It switches an app's web accessibility off again when the last agent releases it or
// has not used it for LedgerIdle, and never when it was on before the ledger switched it: one
// agent cannot pull it from under another, nor from under the user.
type Ledger struct {
	b    WebAccessibility
	idle time.Duration
	now  func() time.Time

	mu   sync.Mutex
	apps map[int]*ledgerApp // by pid
}

type ledgerApp struct {
	wasOn  bool                 // on before the ledger: never switched off by it
	agents map[string]time.Time // last use by agent
}

// LedgerOption configures a Ledger.
type LedgerOption func(*Ledger)

// LedgerIdleAfter replaces the 10 minutes after which an unused claim ends.
func LedgerIdleAfter(d time.Duration) LedgerOption { return func(l *Ledger) { l.idle = d } }

// LedgerClock replaces the clock (tests).
func LedgerClock(now func() time.Time) LedgerOption { return func(l *Ledger) { l.now = now } }

// NewLedger returns an empty ledger over b.
func NewLedger(b WebAccessibility, opts ...LedgerOption) *Ledger {
	l := &Ledger{b: b, idle: LedgerIdle, now: time.Now, apps: map[int]*ledgerApp{}}
	for _, o := range opts {
		o(l)
	}
	return l
}

// Enable claims web accessibility of app pid for agent, switching it on when no agent had it;
// a claim that exists already counts as a use.
func (l *Ledger) Enable(ctx context.Context, pid int, agent string) error {
	if agent == "" {
		return model.Errorf(model.CodeBadRequest, "Name the agent that asks (any stable id).", "no agent")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if a := l.apps[pid]; a != nil {
		a.agents[agent] = l.now()
		return nil
	}
	was, err := l.b.SetWebAccessibility(ctx, pid, true)
	if err != nil {
		return err
	}
	l.apps[pid] = &ledgerApp{wasOn: was, agents: map[string]time.Time{agent: l.now()}}
	return nil
}

// Touch records a use of app pid by agent, so that its claim does not lapse while it works.
func (l *Ledger) Touch(pid int, agent string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a := l.apps[pid]; a != nil {
		if _, ok := a.agents[agent]; ok {
			a.agents[agent] = l.now()
		}
	}
}

// Release ends agent's claim on app pid; the last claim's end restores web accessibility.
func (l *Ledger) Release(ctx context.Context, pid int, agent string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.apps[pid]
	if a == nil {
		return nil
	}
	delete(a.agents, agent)
	return l.restoreIfUnclaimed(ctx, pid, a)
}

// Sweep ends the claims unused for the idle period and restores the apps left unclaimed. The
// daemon calls it now and then.
func (l *Ledger) Sweep(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	for pid, a := range l.apps {
		for agent, used := range a.agents {
			if l.now().Sub(used) >= l.idle {
				delete(a.agents, agent)
			}
		}
		if err := l.restoreIfUnclaimed(ctx, pid, a); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// restoreIfUnclaimed switches web accessibility off when no agent claims it and the ledger
// switched it on. An app that went away is forgotten. Callers hold l.mu.
func (l *Ledger) restoreIfUnclaimed(ctx context.Context, pid int, a *ledgerApp) error {
	if len(a.agents) > 0 {
		return nil
	}
	delete(l.apps, pid)
	if a.wasOn {
		return nil
	}
	if _, err := l.b.SetWebAccessibility(ctx, pid, false); err != nil && model.CodeOf(err) != model.CodeAppNotFound && model.CodeOf(err) != model.CodeAppGone {
		return err
	}
	return nil
}

// Forget drops an app that exited: there is nothing left to restore.
func (l *Ledger) Forget(pid int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.apps, pid)
}

// Entries lists the ledger, by pid.
func (l *Ledger) Entries() []model.LedgerEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]model.LedgerEntry, 0, len(l.apps))
	for pid, a := range l.apps {
		out = append(out, model.LedgerEntry{PID: pid, WasOn: a.wasOn, Agents: slices.Sorted(maps.Keys(a.agents))})
	}
	slices.SortFunc(out, func(x, y model.LedgerEntry) int { return x.PID - y.PID })
	return out
}
