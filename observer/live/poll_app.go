package live

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// appPoller polls one app instance on its own goroutine, so that a hung app delays only itself.
type appPoller struct {
	p      *Poller
	app    model.App
	marks  *marks
	tick   chan struct{} // one pending tick at most: a slow cycle skips ticks, never queues them
	ctx    context.Context
	cancel context.CancelFunc // ends the goroutine: the app is gone or the poller stops
	done   chan struct{}
	// owesReset makes the next cycle publish a reset: a diff was lost, or a consumer asked or joined.
	owesReset atomic.Bool
	// awake is set while the app is polled: someone listens (see PollWhen). Events mark its
	// elements only then.
	awake atomic.Bool

	cycleMu   sync.Mutex // one cycle at a time, whether a tick or PollNow runs it
	tree      *polledTree
	sinceFull int // cycles since the last full read
	// fullAt and fullTook are when the last full read ended and how long it took: a slow one
	// spaces the next resync out (resyncDue).
	fullAt    time.Time
	fullTook  time.Duration
	ended     bool
	listeners int  // consumers at the last cycle
	unheard   bool // the cycle's full read stopped: nobody listens any more

	statsMu sync.Mutex
	stats   model.AppPollStats
}

func newAppPoller(p *Poller, app model.App) *appPoller {
	ap := &appPoller{
		p: p, app: app, marks: newMarks(4 * p.cfg.budget.MaxElements),
		tick: make(chan struct{}, 1), done: make(chan struct{}),
		stats: model.AppPollStats{App: app.Ref()},
	}
	ap.ctx, ap.cancel = context.WithCancel(p.ctx)
	return ap
}

func (ap *appPoller) run() {
	defer close(ap.done)
	for {
		select {
		case <-ap.ctx.Done():
			return
		case <-ap.tick:
		}
		ap.cycle(ap.ctx, false)
	}
}

// nudge asks for a cycle without waiting for it.
func (ap *appPoller) nudge() {
	select {
	case ap.tick <- struct{}{}:
	default:
	}
}

// cycle polls the app once: it finds the window to poll, reads what changed and publishes it.
func (ap *appPoller) cycle(ctx context.Context, asked bool) {
	ap.cycleMu.Lock()
	defer ap.cycleMu.Unlock()
	if ap.ended {
		return
	}
	if ap.marks.ended() {
		ap.end()
		return
	}
	if !ap.listen() {
		return // nobody listens: nothing is read
	}
	wins, err := ap.p.o.Backend().Windows(ctx, ap.app.PID)
	if err != nil {
		if code := model.CodeOf(err); code == model.CodeAppGone || code == model.CodeAppNotFound {
			ap.end()
		}
		return // a busy app is asked again at the next tick
	}
	win, ok := ap.pick(wins)
	if !ok {
		if ap.tree != nil {
			ap.publish(ap.goneDiff())
			ap.tree = nil
			ap.record(0, false)
		}
		return
	}
	d, kind := ap.step(ctx, win, asked)
	if ap.unheard { // the last listener left during a full read: it was cut short and is moot
		ap.unheard = false
		ap.record(d.reads, false)
		ap.doze()
		return
	}
	ap.record(d.reads, kind == model.DiffReset || kind == model.DiffResync)
	if ap.tree != nil && ap.owesReset.Swap(false) && kind != model.DiffReset {
		d, kind = &delta{added: ap.tree.all(), reads: d.reads}, model.DiffReset // from memory: no reads
	}
	switch {
	case kind == "":
		return
	case kind != model.DiffReset && d.empty():
		return // nothing changed: nothing is published
	}
	ap.publish(ap.diff(kind, d))
}

// pick chooses the window to poll: the focused one, else the one polled so far while it stays
// open (focus left the app), else none.
func (ap *appPoller) pick(wins []model.Window) (model.Window, bool) {
	for _, w := range wins {
		if w.Focused {
			return w, true
		}
	}
	if ap.tree != nil {
		for _, w := range wins {
			if w.Ref == ap.tree.root {
				return w, true
			}
		}
	}
	return model.Window{}, false
}

// step reads what this cycle must read and returns the changes and how to publish them; an
// empty kind publishes nothing (a full read that failed, kept for the next cycle). A cycle
// asked for (PollNow) resyncs when due by count, however long the last full read took.
func (ap *appPoller) step(ctx context.Context, win model.Window, asked bool) (*delta, model.DiffKind) {
	m := ap.marks.take() // a full read covers whatever was marked
	resync := ap.p.cfg.resync
	switch {
	case ap.tree == nil || win.Ref != ap.tree.root:
		return ap.reset(ctx, win)
	case m.overflow || (resync > 0 && ap.sinceFull+1 >= resync && (asked || resyncDue(ap.fullAt, ap.fullTook, len(ap.tree.elems)))):
		return ap.resync(ctx, win)
	}
	ap.sinceFull++
	ap.tree.window = win
	d, retry := applyMarks(ctx, ap.p.o.Backend(), ap.tree, m)
	ap.marks.again(retry)
	return d, model.DiffEvents
}

// reset reads a window not polled before (the app's first, or a window switch) whole.
func (ap *appPoller) reset(ctx context.Context, win model.Window) (*delta, model.DiffKind) {
	w := ap.walk(ctx, win)
	if len(w.Nodes) == 0 {
		return &delta{reads: w.Reads}, "" // the app did not answer: the next cycle tries again
	}
	ap.tree, ap.sinceFull = pollTree(win, &w, ap.p.cfg.budget), 0
	return &delta{added: ap.tree.all(), reads: w.Reads, truncation: w.Truncation}, model.DiffReset
}

// resync reads the window whole and compares it with what events kept up to date, to find
// what notifications missed. A read cut by its deadline is thrown away, not compared: every
// element it did not reach would look removed.
func (ap *appPoller) resync(ctx context.Context, win model.Window) (*delta, model.DiffKind) {
	w := ap.walk(ctx, win)
	if len(w.Nodes) == 0 || slices.Contains(w.Truncation, model.TruncatedDeadline) {
		return &delta{reads: w.Reads}, "" // still due: the next cycle reads again
	}
	next := pollTree(win, &w, ap.p.cfg.budget)
	d := &delta{reads: w.Reads, truncation: w.Truncation}
	diffTrees(ap.tree, next, d)
	ap.tree, ap.sinceFull = next, 0
	return d, model.DiffResync
}

// walk reads a window whole with the wide budget, off-screen content included, in small calls
// (see readsPerCall). A read that nobody listens to any more stops, and marks the poller
// unheard: its cycle publishes nothing and drops the copy.
func (ap *appPoller) walk(ctx context.Context, win model.Window) observer.WalkResult {
	start := time.Now()
	defer func() { ap.fullAt, ap.fullTook = time.Now(), time.Since(start) }()
	if ap.p.cfg.listeners == nil {
		return observer.Walk(ctx, gentle{ap.p.o.Backend()}, win.Ref, observer.WalkOptions{Budget: ap.p.cfg.budget})
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r := &heeded{r: ap.p.o.Backend(), cancel: cancel, last: time.Now(),
		heard: func() bool { return ap.p.cfg.listeners(ap.app) > 0 }}
	w := observer.Walk(ctx, r, win.Ref, observer.WalkOptions{Budget: ap.p.cfg.budget})
	ap.unheard = context.Cause(ctx) == errUnheard
	return w
}

// gentle reads in calls of at most readsPerCall elements.
type gentle struct{ r observer.Reader }

func (g gentle) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	out := make([]model.Node, 0, len(refs))
	for start := 0; start < len(refs); start += readsPerCall {
		out = append(out, g.r.Read(ctx, refs[start:min(start+readsPerCall, len(refs))])...)
	}
	return out
}

func (ap *appPoller) diff(kind model.DiffKind, d *delta) model.Diff {
	return model.Diff{
		Kind: kind, App: ap.app.Ref(), Window: ap.tree.window.RefOf(), Time: ap.p.o.Now(),
		Elements: len(ap.tree.elems), Truncation: d.truncation,
		Added: d.added, Removed: d.removed, Changed: d.changed, Reads: d.reads,
	}
}

func (ap *appPoller) goneDiff() model.Diff {
	return model.Diff{Kind: model.DiffGone, App: ap.app.Ref(), Window: ap.tree.window.RefOf(), Time: ap.p.o.Now()}
}

// publish hands d to the sink. A diff the sink could not take leaves consumers a diff behind,
// so the next cycle publishes a reset.
func (ap *appPoller) publish(d model.Diff) {
	if !ap.p.sink(d) {
		ap.owesReset.Store(true)
		return
	}
	ap.statsMu.Lock()
	ap.stats.Published++
	ap.statsMu.Unlock()
}

// end stops polling an app that exited, telling consumers to forget its window.
func (ap *appPoller) end() {
	ap.ended = true
	if ap.tree != nil {
		ap.publish(ap.goneDiff())
		ap.tree = nil
	}
	ap.record(0, false)
	ap.awake.Store(false)
	ap.cancel()
}

// record updates the stats after a cycle.
func (ap *appPoller) record(reads int, full bool) {
	ap.statsMu.Lock()
	defer ap.statsMu.Unlock()
	s := &ap.stats
	s.Window, s.Elements = nil, 0
	if ap.tree != nil {
		w := ap.tree.window.RefOf()
		s.Window, s.Elements = &w, len(ap.tree.elems)
		s.Cycles++
	}
	s.Listeners = ap.listeners
	s.Reads += uint64(reads)
	if full {
		s.FullReads++
	}
}

func (ap *appPoller) snapshotStats() model.AppPollStats {
	ap.statsMu.Lock()
	s := ap.stats
	ap.statsMu.Unlock()
	s.Pending = ap.marks.pending()
	s.Polling = ap.awake.Load()
	return s
}
