package handlers

import (
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// heavyGate admits heavy work (api.MaxHeavy and the rest) by count and estimated bytes, for
// each identity and in all. Waiting requests are served identity by identity: the first admitted
// is the one whose identity runs the fewest, the earliest of those; a request the whole daemon
// has no room for yet goes first once there is, so a large one is never passed for ever.
type heavyGate struct {
	mu      sync.Mutex
	running int
	bytes   int64
	queued  int
	busy    uint64               // requests refused since the start
	uses    map[string]*heavyUse // by identity
	waiting []*heavyTurn         // in order of arrival
}

// heavyUse is one identity's heavy work, running and waiting.
type heavyUse struct {
	running, queued int
	bytes           int64
}

// heavyTurn is one request's place in the queue.
type heavyTurn struct {
	who      string
	cost     int64
	queued   bool
	admitted chan struct{} // closed once it may run
}

// acquire waits for a turn of who's to run work of cost estimated bytes, and returns the
// function that ends it; BUSY when the queue is full or ctx ends before the turn comes.
func (g *heavyGate) acquire(ctx context.Context, who string, cost int64) (release func(), err error) {
	cost = min(max(cost, 1), api.MaxHeavyBytesPerIdentity)
	t := &heavyTurn{who: who, cost: cost, admitted: make(chan struct{})}
	g.mu.Lock()
	if g.uses == nil {
		g.uses = map[string]*heavyUse{}
	}
	u := g.use(who)
	g.waiting = append(g.waiting, t)
	g.dispatch()
	if !t.isAdmitted() {
		if u.queued >= api.MaxHeavyQueuedPerIdentity || g.queued >= api.MaxHeavyQueued {
			g.drop(t)
			g.busy++
			g.mu.Unlock()
			return nil, model.Errorf(model.CodeBusy, "Wait for your screenshots, reads or scoped inspections to end, then retry.",
				"%s has %d heavy requests running and %d waiting (the daemon %d and %d)", who, u.running, u.queued, g.running, g.queued).
				With("heavy_running", u.running)
		}
		t.queued, u.queued, g.queued = true, u.queued+1, g.queued+1
	}
	g.mu.Unlock()
	start := time.Now()
	select {
	case <-t.admitted:
	case <-ctx.Done():
		g.mu.Lock()
		admitted := t.isAdmitted()
		if !admitted {
			g.drop(t)
			g.busy++
		}
		g.mu.Unlock()
		if admitted {
			g.release(t)
		}
		return nil, model.Errorf(model.CodeBusy, "Retry when the daemon is less busy, or ask for less (a window, a region, a smaller max_side).",
			"no turn for heavy work came within the request's time (%v waited)", time.Since(start).Round(time.Millisecond)).
			With("waited_ms", time.Since(start).Milliseconds())
	}
	var once sync.Once
	return func() { once.Do(func() { g.release(t) }) }, nil
}

func (g *heavyGate) use(who string) *heavyUse {
	u := g.uses[who]
	if u == nil {
		u = &heavyUse{}
		g.uses[who] = u
	}
	return u
}

func (t *heavyTurn) isAdmitted() bool {
	select {
	case <-t.admitted:
		return true
	default:
		return false
	}
}

// dispatch admits the waiting turns there is room for, fairest first.
func (g *heavyGate) dispatch() {
	for {
		best := -1
		for i, t := range g.waiting {
			u := g.uses[t.who]
			if u.running >= api.MaxHeavyPerIdentity || u.bytes+t.cost > api.MaxHeavyBytesPerIdentity {
				continue // its identity's share is full: others may pass it
			}
			if best < 0 || u.running < g.uses[g.waiting[best].who].running {
				best = i
			}
		}
		if best < 0 {
			return
		}
		t := g.waiting[best]
		if g.running >= api.MaxHeavy || g.bytes+t.cost > api.MaxHeavyBytes {
			return // the daemon's room is full: t goes first when there is some
		}
		g.waiting = append(g.waiting[:best], g.waiting[best+1:]...)
		u := g.uses[t.who]
		if t.queued {
			u.queued--
			g.queued--
		}
		u.running++
		u.bytes += t.cost
		g.running++
		g.bytes += t.cost
		close(t.admitted)
	}
}

// drop takes a turn that never ran out of the queue.
func (g *heavyGate) drop(t *heavyTurn) {
	for i, w := range g.waiting {
		if w == t {
			g.waiting = append(g.waiting[:i], g.waiting[i+1:]...)
			break
		}
	}
	u := g.uses[t.who]
	if t.queued {
		u.queued--
		g.queued--
	}
	g.forget(t.who)
	g.dispatch() // t may have held up others behind it
}

func (g *heavyGate) release(t *heavyTurn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	u := g.uses[t.who]
	u.running--
	u.bytes -= t.cost
	g.running--
	g.bytes -= t.cost
	g.forget(t.who)
	g.dispatch()
}

// forget drops an identity that has nothing running or waiting.
func (g *heavyGate) forget(who string) {
	if u := g.uses[who]; u != nil && u.running == 0 && u.queued == 0 {
		for _, t := range g.waiting {
			if t.who == who {
				return // a turn still in acquire, not counted as queued yet
			}
		}
		delete(g.uses, who)
	}
}

// heavy runs fn in a turn of the requester's for work of cost estimated bytes.
func (o *Observing) heavy(ctx context.Context, cost int64, fn func() (any, error)) (any, error) {
	release, err := o.gate.acquire(ctx, api.IdentityOf(ctx).Name, cost)
	if err != nil {
		return nil, err
	}
	defer release()
	return fn()
}

// admitShot is a screenshot's screen.Request.Admit: a turn of the requester's for
// its pixels, api.HeavyShotFactor times over.
func (o *Observing) admitShot(ctx context.Context, pixelBytes int64) (func(), error) {
	return o.gate.acquire(ctx, api.IdentityOf(ctx).Name, pixelBytes*api.HeavyShotFactor)
}

// walkCost is the estimated memory of a walk within budget.
func walkCost(b model.Budget) int64 { return int64(b.MaxElements) * api.HeavyElementBytes }

// HeavyStatus is what status reports of the heavy work.
func (o *Observing) HeavyStatus() *api.HeavyStatus { return o.gate.status() }

// status is what status reports of the heavy work.
func (g *heavyGate) status() *api.HeavyStatus {
	g.mu.Lock()
	defer g.mu.Unlock()
	return &api.HeavyStatus{Running: g.running, Queued: g.queued, Bytes: g.bytes, Busy: g.busy}
}
