package live

import (
	"context"
	"errors"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// PollWhen polls an app only while someone consumes its diffs: listeners(app) is how many do
// (the daemon counts the subscriptions of its NATS server that cover the app's subject). It is
// asked at every cycle before anything is read, and now and then during a full read, from the
// poller's goroutines: it must be cheap, must not block and must be safe for concurrent use.
//
// While it says 0 the app is dormant: nothing of it is read, its events mark nothing, and the
// copy of its window is dropped. When it rises above 0 the next cycle reads the window whole
// and publishes a reset; when it rises while the app is polled, a new consumer joined, and the
// next cycle publishes a reset from memory (no read), so that every consumer starts from the
// whole window. (One consumer replacing another between two cycles leaves the count as it was
// and gets no reset of its own.) Without PollWhen every app is polled, consumed or not.
func PollWhen(listeners func(model.App) int) PollOption {
	return func(c *pollConfig) { c.listeners = listeners }
}

// PollDormant calls fn each time the poller goes from polling some app to polling none (the
// last listener left, or the last polled app exited), on the poller's own goroutine, which it
// holds up meanwhile: the daemon hands the memory of the copies just dropped back to the
// system there.
func PollDormant(fn func()) PollOption {
	return func(c *pollConfig) { c.dormant = fn }
}

// idleDiscovery is how often a poller with no app polled looks for apps launched or exited that
// no event announced. Launch and exit events make it look at once; while an app is polled it
// looks at every cycle, as it must to see a relaunch. One call to list the apps every 30 s is
// the whole cost of discovery on an idle daemon.
const idleDiscovery = 30 * time.Second

// listenersOf is how many consume app's diffs; 1 without PollWhen.
func (c *pollConfig) listenersOf(app model.App) int {
	if c.listeners == nil {
		return 1
	}
	return c.listeners(app)
}

// listen checks, before a cycle reads anything, that someone consumes the app's diffs. With
// nobody it drops the copy and the cycle reads nothing; a consumer more than at the last cycle
// is owed a reset. The caller holds cycleMu.
func (ap *appPoller) listen() bool {
	n := ap.p.cfg.listenersOf(ap.app)
	if n <= 0 {
		ap.doze()
		return false
	}
	if n > ap.listeners && ap.tree != nil {
		ap.owesReset.Store(true) // a new consumer: the whole window from memory
	}
	ap.listeners = n
	ap.awake.Store(true) // before the read: what changes during it is marked and read next
	return true
}

// doze stops polling an app nobody listens to: its copy and marks are dropped, so a dormant
// app costs a goroutine parked on its tick channel and nothing else. The caller holds cycleMu.
func (ap *appPoller) doze() {
	ap.listeners = 0
	if !ap.awake.Load() && ap.tree == nil {
		return
	}
	ap.tree, ap.sinceFull = nil, 0
	ap.record(0, false)
	ap.awake.Store(false) // last: once the poller sees no app awake, every copy is dropped
	ap.marks.take()       // what events marked names elements of the copy dropped
}

// appsMoved makes the poller look for apps launched and exited now, not at its next discovery.
func (p *Poller) appsMoved() {
	select {
	case p.rediscover <- struct{}{}:
	default:
	}
}

// busy reports whether discovery must run at every cycle: without PollWhen, or while an app is
// polled (its relaunch must be seen at once).
func (p *Poller) busy() bool {
	if p.cfg.listeners == nil {
		return true
	}
	p.appsMu.RLock()
	defer p.appsMu.RUnlock()
	for _, ap := range p.apps {
		if ap.awake.Load() {
			return true
		}
	}
	return false
}

// due reports whether the app's goroutine has a cycle to run at this tick: it is polled, or
// someone started listening. A dormant app nobody listens to is not woken at all.
func (ap *appPoller) due() bool {
	return ap.awake.Load() || ap.p.cfg.listenersOf(ap.app) > 0
}

// heedEvery is how often a full read asks whether anyone still listens: the read of a large
// window takes seconds (Chromium's 4,000 elements, 8 s on two cores), and it stops within this
// long once nobody does.
const heedEvery = 250 * time.Millisecond

// errUnheard ends a full read nobody listens to any more.
var errUnheard = errors.New("nobody listens to the app's diffs any more")

// heeded reads as gentle does, in calls of at most readsPerCall elements, and between calls
// ends the read (cancelling its context with errUnheard) once nobody listens.
type heeded struct {
	r      observer.Reader
	heard  func() bool
	cancel context.CancelCauseFunc
	last   time.Time
}

func (h *heeded) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	out := make([]model.Node, 0, len(refs))
	for start := 0; start < len(refs); start += readsPerCall {
		chunk := refs[start:min(start+readsPerCall, len(refs))]
		if time.Since(h.last) >= heedEvery {
			h.last = time.Now()
			if !h.heard() {
				h.cancel(errUnheard)
			}
		}
		if err := ctx.Err(); err != nil {
			for _, r := range chunk {
				out = append(out, model.Node{Ref: r, Err: err})
			}
			continue
		}
		out = append(out, h.r.Read(ctx, chunk)...)
	}
	return out
}
