package waiters

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/waiters/condition"
)

// An app's watcher evaluates its waits one after the other, on every event. A wait whose
// evaluation needs more than InlineBudget steps (a long regex over long texts) is evaluated from
// then on by the engine's costly pool, on a frozen copy of what it would have looked at: it
// delays itself and the other costly waits, never the app's other waits nor its events. The pool
// has half the processors (one at least), so the rest of the daemon keeps the others; each
// evaluation is metered (EvalBudget) and stops once its wait ends.

// costlyPool evaluates the costly waits' jobs, each (watcher, wait) in its turn, and identities
// in turn: one identity's many costly waits delay another's costly wait by one job of each.
type costlyPool struct {
	mu    sync.Mutex
	slots map[slotKey]*costlySlot
	// queues holds, by identity, the slots with a job in the order they got it; turns the
	// identities with some, in the order they are served.
	queues  map[string][]slotKey
	turns   []string
	wake    chan struct{}
	started sync.Once
	// runs counts the evaluations begun.
	runs atomic.Int64
}

// slotKey is one watcher's evaluations of one wait: a desktop-wide wait has one per app.
type slotKey struct {
	aw *appWatch
	w  *wait
}

// costlySlot holds a wait's next evaluation on a watcher: a newer job replaces one not begun.
type costlySlot struct {
	next    *costlyJob
	running bool
	queued  bool
}

// costlyJob is one evaluation off the watcher: the wait, what made the watcher evaluate it, and
// its view frozen as the watcher saw it (its elements listed, so no window stays locked while
// it matches).
type costlyJob struct {
	ctx     context.Context
	trigger *Trigger
	v       *view
	env     evalEnv
}

func newCostlyPool() *costlyPool {
	return &costlyPool{slots: map[slotKey]*costlySlot{}, queues: map[string][]slotKey{}, wake: make(chan struct{}, 1)}
}

// costlyWorkers is how many costly evaluations run at once.
func costlyWorkers() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// backlogged reports whether w has a job on aw not begun yet: the watcher then hands it a whole
// view, which supersedes that job whatever it looked at.
func (p *costlyPool) backlogged(aw *appWatch, w *wait) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.slots[slotKey{aw, w}]
	return s != nil && s.next != nil
}

// running reports whether an evaluation runs now.
func (p *costlyPool) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.slots {
		if s.running {
			return true
		}
	}
	return false
}

// busy reports whether an evaluation runs or waits its turn.
func (p *costlyPool) busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.slots) > 0
}

// submitCostly hands w's evaluation to the pool, replacing the one it had not begun.
func (e *Engine) submitCostly(aw *appWatch, w *wait, j *costlyJob) {
	p := e.costly
	p.started.Do(func() {
		for range costlyWorkers() {
			e.wg.Add(1)
			go func() {
				defer e.wg.Done()
				p.work(e.ctx)
			}()
		}
	})
	k := slotKey{aw, w}
	p.mu.Lock()
	s := p.slots[k]
	if s == nil {
		s = &costlySlot{}
		p.slots[k] = s
	}
	s.next = j
	if !s.running && !s.queued {
		p.enqueue(k, s)
	}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// work runs jobs until ctx ends.
func (p *costlyPool) work(ctx context.Context) {
	for {
		k, j := p.take()
		if j == nil {
			select {
			case <-ctx.Done():
				return
			case <-p.wake:
			}
			continue
		}
		p.runs.Add(1)
		k.aw.settleOff(k.w, j)
		p.finished(k)
		select { // another worker may sleep while jobs wait
		case p.wake <- struct{}{}:
		default:
		}
	}
}

// enqueue queues slot k behind its identity's others; called under p.mu.
func (p *costlyPool) enqueue(k slotKey, s *costlySlot) {
	s.queued = true
	if len(p.queues[k.w.who]) == 0 {
		p.turns = append(p.turns, k.w.who)
	}
	p.queues[k.w.who] = append(p.queues[k.w.who], k)
}

// take returns the job of the oldest queued slot of the identity whose turn it is, marking it
// running; nil when none waits.
func (p *costlyPool) take() (slotKey, *costlyJob) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.turns) > 0 {
		who := p.turns[0]
		p.turns = p.turns[1:]
		k := p.queues[who][0]
		if p.queues[who] = p.queues[who][1:]; len(p.queues[who]) > 0 {
			p.turns = append(p.turns, who) // its next after the other identities'
		} else {
			delete(p.queues, who)
		}
		s := p.slots[k]
		s.queued = false
		if s.next == nil {
			continue
		}
		j := s.next
		s.next, s.running = nil, true
		return k, j
	}
	return slotKey{}, nil
}

// finished ends a slot's running job: a job that came meanwhile queues it again (at the end: the
// other costly waits come first), a wait that ended forgets it.
func (p *costlyPool) finished(k slotKey) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.slots[k]
	s.running = false
	switch {
	case k.w.ended.Load():
		delete(p.slots, k)
	case s.next != nil:
		p.enqueue(k, s)
	default:
		delete(p.slots, k)
	}
}

// settleOff evaluates j for w off the watcher, within EvalBudget: a wait past it ends with
// CONDITION_TOO_COSTLY; one that held but could not be confirmed is looked at whole again by
// the watcher's next recheck.
func (aw *appWatch) settleOff(w *wait, j *costlyJob) {
	if w.ended.Load() || j.ctx.Err() != nil {
		return
	}
	mt := condition.NewMeter(EvalBudget, func() bool { return w.ended.Load() || j.ctx.Err() != nil })
	outcome := aw.settle(j.ctx, w, j.trigger, j.v, j.env, mt)
	w.lastCost.Store(mt.Used()) // the watcher puts it after the cheaper waits
	switch outcome {
	case stopped:
		if mt.Over() {
			w.finish(tooCostly(EvalBudget))
		}
	case heldUnconfirmed:
		w.recheckWhole.Store(true)
	case notHeld:
		if j.v.only == nil {
			w.recheckWhole.Store(false)
		}
	}
}

// offload hands w's evaluation on v to the costly pool, v frozen.
func (aw *appWatch) offload(ctx context.Context, w *wait, trigger *Trigger, v *view) {
	if aw.frozenLists == nil {
		aw.frozenLists = map[frozenKey][]*model.Node{}
	}
	aw.e.submitCostly(aw, w, &costlyJob{ctx: ctx, trigger: trigger, v: v.freeze(aw.frozenLists, w.req.Window), env: aw.env()})
}

// evalEnv is what the settling of a wait needs of its watcher's state, taken on the watcher.
type evalEnv struct {
	app     model.App
	windows []model.Window
}

func (aw *appWatch) env() evalEnv { return evalEnv{app: aw.app, windows: aw.windows} }
