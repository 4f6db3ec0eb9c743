package waiters

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer/live"
)

// appWatch watches one app for the waits about it (and the desktop-wide ones). Its goroutine
// owns the app's live windows; the event hub only queues events for it.
type appWatch struct {
	e   *Engine
	pid int

	mu     sync.Mutex
	waits  map[*wait]bool
	events []model.Event
	added  []*wait
	kick   chan struct{}
	quit   chan struct{}
	closed bool
	// idleSince is when the last wait left; the watcher lingers, kept warm by events.
	idleSince time.Time
	// since is when the watcher began to listen; moved, when layout events last named an
	// element (locators wait for their element to keep still); due, the locators' waits whose
	// settle period or recheck ended.
	since time.Time
	moved map[model.NodeRef]time.Time
	due   []*wait

	// owned by run
	// spent is the steps the waits took on the watcher for the change being evaluated;
	// frozenLists, the element lists of the views frozen for it (costly.go).
	spent       int64
	frozenLists map[frozenKey][]*model.Node
	app         model.App
	windows     []model.Window
	live        map[model.NodeRef]*live.Window // by window handle
	gone        bool
	listed      []*wait // waitList's
	// resyncing says a whole re-read is in progress, off the loop: rounds go on meanwhile, so an
	// event is answered in milliseconds even while a window's re-read takes a quarter second.
	resyncing bool
	resynced  chan resynced
	// pace is the default recheck period now: DefaultRecheck, doubled up to MaxRecheck by every
	// re-read that finds nothing new, so that an app whose toolkit announces everything is not
	// walked whole every second (a quarter second of its and our time, in the way of actions).
	pace time.Duration
	bg   sync.WaitGroup // the re-read's goroutine
	// unconfirmed are the waits whose condition held of the copy but not of the app when read
	// again: the next recheck looks at them whole, whatever changed.
	unconfirmed map[*wait]bool
	// loading are the live windows being read whole, off the loop (load.go); loaded takes
	// each read's end to the loop.
	loading map[*live.Window]bool
	loaded  chan loadDone
	// failed is when the whole read of a window (by handle) last failed (aw.mu): see retryLoad.
	failed map[model.NodeRef]time.Time
	// evSeq counts the events pushed (aw.mu), lastEv is the latest; addedAt is evSeq when each
	// wait was added: a copy read whole after events came says they may have made it hold.
	evSeq   uint64
	lastEv  Trigger
	addedAt map[*wait]uint64
}

func newAppWatch(e *Engine, pid int) *appWatch {
	return &appWatch{e: e, pid: pid, waits: map[*wait]bool{}, kick: make(chan struct{}, 1), quit: make(chan struct{}),
		live: map[model.NodeRef]*live.Window{}, unconfirmed: map[*wait]bool{},
		loading: map[*live.Window]bool{}, loaded: make(chan loadDone), failed: map[model.NodeRef]time.Time{}, addedAt: map[*wait]uint64{},
		since: time.Now(), moved: map[model.NodeRef]time.Time{}, resynced: make(chan resynced, 1), pace: DefaultRecheck}
}

func (aw *appWatch) nudge() {
	select {
	case aw.kick <- struct{}{}:
	default:
	}
}

// push queues an event; it never blocks.
func (aw *appWatch) push(ev model.Event) {
	aw.mu.Lock()
	if len(aw.events) < maxQueued {
		aw.events = append(aw.events, ev)
	}
	aw.evSeq++
	aw.lastEv = Trigger{Kind: "event", Event: ev.Type, Raw: ev.Raw}
	if ev.Type == model.EventLayoutChanged && ev.Ref != "" {
		aw.noteLayout(ev.Ref, time.Now())
	}
	aw.mu.Unlock()
	for _, lw := range aw.liveSnapshot() {
		lw.Note(ev) // marks: what the next refresh reads
	}
	aw.nudge()
}

// maxQueued bounds the events queued between two rounds; the marks keep what they name anyway.
const maxQueued = 4096

// liveSnapshot lists the live windows for push, which runs on the hub's goroutine.
func (aw *appWatch) liveSnapshot() []*live.Window {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	out := make([]*live.Window, 0, len(aw.live))
	for _, lw := range aw.live {
		out = append(out, lw)
	}
	return out
}

func (aw *appWatch) add(w *wait) {
	aw.mu.Lock()
	aw.waits[w] = true
	aw.added = append(aw.added, w)
	aw.addedAt[w] = aw.evSeq
	aw.mu.Unlock()
	aw.nudge()
}

// remove forgets w and reports whether the watcher has no wait of its own left.
func (aw *appWatch) remove(w *wait) bool {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	if _, ok := aw.waits[w]; !ok {
		return false
	}
	delete(aw.waits, w)
	delete(aw.addedAt, w)
	if len(aw.waits) == 0 {
		aw.idleSince = time.Now()
	}
	return len(aw.waits) == 0
}

// idleFor is how long the watcher has had no wait; 0 while it has one.
func (aw *appWatch) idleFor() time.Duration {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	if len(aw.waits) > 0 {
		return 0
	}
	return time.Since(aw.idleSince)
}

func (aw *appWatch) stop() {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	if !aw.closed {
		aw.closed = true
		close(aw.quit)
	}
}

// run is the watcher's loop: new waits are evaluated at once, events as they come, and
// everything again every recheck period.
func (aw *appWatch) run(ctx context.Context) {
	defer aw.bg.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // before the wait: a re-read in progress ends
	recheck := time.NewTicker(aw.recheckPeriod())
	defer recheck.Stop()
	aw.refreshWindows(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-aw.quit:
			return
		case <-aw.kick:
			aw.round(ctx)
		case r := <-aw.resynced:
			aw.resyncing = false
			aw.resyncDone(ctx, r)
		case d := <-aw.loaded:
			aw.loadDone(ctx, d)
		case <-recheck.C:
			if aw.idleFor() == 0 && !aw.resyncing { // a lingering watcher is kept warm by events alone
				aw.resync(ctx)
			}
			recheck.Reset(aw.recheckPeriod())
		}
	}
}

// recheckPeriod is the shortest recheck its waits ask for.
func (aw *appWatch) recheckPeriod() time.Duration {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	p := aw.pace
	for w := range aw.waits {
		if w.recheckAsked {
			p = min(p, w.req.Recheck)
		}
	}
	return p
}

// take returns the queued events, the waits added since the last round and those due again.
func (aw *appWatch) take() ([]model.Event, []*wait, []*wait) {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	evs, added, due := aw.events, aw.added, aw.due
	aw.events, aw.added, aw.due = nil, nil, nil
	return evs, added, due
}

// waitList lists the waits to evaluate: the app's own and the desktop-wide ones. The list is
// the watcher's, reused by the next call: a round lists a thousand waits once per event.
func (aw *appWatch) waitList() []*wait {
	aw.mu.Lock()
	out := aw.listed[:0]
	for w := range aw.waits {
		out = append(out, w)
	}
	aw.listed = out
	aw.mu.Unlock()
	return out
}

// round handles what came since the last one: events re-read what they name, then every wait
// is evaluated; waits added meanwhile are evaluated as they begin.
func (aw *appWatch) round(ctx context.Context) {
	evs, added, due := aw.take()
	for _, w := range due {
		aw.unconfirmed[w] = true // looked at whole below; one that ended is forgotten there
	}
	trigger := &Trigger{Kind: "initial"}
	if len(due) > 0 {
		trigger = &Trigger{Kind: "recheck"}
	}
	if len(evs) > 0 {
		last := evs[len(evs)-1]
		trigger = &Trigger{Kind: "event", Event: last.Type, Raw: last.Raw}
	}
	for _, ev := range evs {
		if ev.Type == model.EventAppTerminated {
			aw.gone = true
		}
	}
	if aw.gone {
		aw.ended()
		return
	}
	ch := &change{trigger: trigger, events: evs, winsChanged: windowsChanged(evs), named: map[model.NodeRef]bool{}}
	if ch.winsChanged {
		aw.refreshWindows(ctx)
	}
	for _, ev := range evs {
		ch.named[ev.Ref] = true
	}
	if p := aw.addedByEvents(evs); len(p.reads) > 0 { // before the refresh: its reads may wait for the app's layout
		for _, w := range aw.waitList() {
			if w.appears() && !w.ended.Load() {
				aw.checkProbe(w, p)
			}
		}
	}
	ch.touched, ch.fresh = aw.refreshLive(ctx)
	aw.evaluateWaits(ctx, ch, added)
}

// change is what a round (or a whole read) found, for the waits to be evaluated on.
type change struct {
	trigger *Trigger
	// touched are the elements added or changed (a removal: the empty ref); fresh, those read
	// in this round, as read: read after the events that named them, they need no second read.
	touched map[model.NodeRef]bool
	fresh   map[model.NodeRef]*model.Node
	// named are the elements the events named; events the round's own.
	named  map[model.NodeRef]bool
	events []model.Event
	// winsChanged says every wait looks again whole: the windows changed, or one was read whole
	// for the first time (loaded, and each wait's trigger is then its own: loadTrigger).
	winsChanged bool
	loaded      bool
}

// evaluateWaits evaluates the waits after a change of the copy: added waits from scratch, every
// wait when the windows changed, else those a touched element may concern or whose target an
// event named (it may be out of the window's tree); a wait that held but was not confirmed is
// looked at whole again. A wait whose window is still being read whole may be met meanwhile by
// what the round's events named, read on its own (probe.go).
func (aw *appWatch) evaluateWaits(ctx context.Context, ch *change, added []*wait) {
	shared := map[string]*view{} // what the waits that look only at touched elements see, by window
	var probe *probed            // read once for all the waits that look at it
	probing := len(ch.events) > 0 && len(aw.loading) > 0
	waits := aw.waitList()
	// The cheapest first, within the round's budget (budget.go): a thousand costly waits delay
	// a cheap one by RoundBudget at most.
	slices.SortStableFunc(waits, func(a, b *wait) int { return cmp.Compare(a.lastCost.Load(), b.lastCost.Load()) })
	aw.spent, aw.frozenLists = 0, nil
	defer func() { aw.frozenLists = nil }() // the next change lists them again
	for w := range aw.unconfirmed {
		if !slices.Contains(waits, w) {
			delete(aw.unconfirmed, w) // it ended otherwise (timed out, cancelled)
		}
	}
	for _, w := range waits {
		switch {
		case slices.Contains(added, w):
			aw.evaluate(ctx, w, &Trigger{Kind: "initial"}, ch.fresh)
			w.listening() // its windows are watched now: what happens next is seen
		case ch.loaded:
			aw.evaluate(ctx, w, aw.loadTrigger(w), ch.fresh)
		case ch.winsChanged || aw.unconfirmed[w] || w.recheckWhole.Load() || w.targetNamed(ch.named):
			aw.evaluate(ctx, w, ch.trigger, ch.fresh)
		case len(ch.touched) > 0 && w.shares && (w.costly.Load() || aw.spent >= RoundBudget):
			if aw.e.costly.backlogged(aw, w) { // its pending job may look at other elements: look at all
				aw.evaluate(ctx, w, ch.trigger, ch.fresh)
			} else {
				aw.check(ctx, w, ch.trigger, aw.sharedView(ctx, shared, w, ch))
			}
		case len(ch.touched) > 0 && w.shares:
			// It held of nothing before: only what was added or changed can make it hold now.
			v := aw.sharedView(ctx, shared, w, ch)
			mt := newMeter(InlineBudget, w)
			matched := w.cond.MatchesAnyOf(v.onlyNodes, mt) // most of a thousand waits match none of them
			aw.charge(w, mt)
			if matched {
				aw.check(ctx, w, ch.trigger, v)
			} else if mt.Over() {
				w.costly.Store(true)
				aw.check(ctx, w, ch.trigger, v)
			}
		case len(ch.touched) > 0:
			aw.evaluate(ctx, w, ch.trigger, ch.fresh)
		}
		if probing && !w.ended.Load() && aw.probes(w) {
			if probe == nil {
				probe = aw.probe(ctx, ch.events)
			}
			aw.checkProbe(w, probe)
		}
	}
}

// sharedView is what the waits that share see of ch in w's window (all the app's windows when
// it names none): the touched elements alone, as fresh as the round read them. It is made once
// per window for all of them.
func (aw *appWatch) sharedView(ctx context.Context, shared map[string]*view, w *wait, ch *change) *view {
	v := shared[w.req.Window]
	if v == nil {
		v = aw.viewFor(ctx, &wait{req: Request{Window: w.req.Window}, cond: w.cond})
		v.override, v.only = ch.fresh, ch.touched
		v.onlyNodes = v.lookup(ch.touched)
		shared[w.req.Window] = v
	}
	return v
}

// targetNamed reports whether one of the elements w's condition names is among refs.
func (w *wait) targetNamed(refs map[model.NodeRef]bool) bool {
	for _, ref := range w.targets {
		if refs[ref] {
			return true
		}
	}
	return false
}
