//go:build linux

package atspi

import (
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/observer"
)

// Tuning of an app's worker.
const (
	maxQueuedJobs     = 5000            // per app; beyond it the oldest events are dropped
	unresponsiveQuiet = 2 * time.Second // after a read timed out, events of the app go without element summaries
	// summaryBudget bounds the read of the elements of a run of events: the event on the bus within
	// 50 ms of the change matters more than a complete summary.
	summaryBudget = 30 * time.Millisecond
	// maxAnnounced bounds what a watch remembers of an app's elements' states and names.
	maxAnnounced = 50_000
)

// The kinds of jobs of an app's worker.
const (
	jobEvent = iota
	jobLaunched
	jobGone
	jobPoll
	// jobRegisteredAgain: an app that was running registered with a restarted registry.
	jobRegisteredAgain
)

// job is one thing an app's worker does, in arrival order.
type job struct {
	kind    int
	raw     RawEvent
	rawName string
	src     model.NodeRef
	data    dbus.Variant
	at      time.Time
	app     *appInfo
	// known is what the cache held of the event's element once the event was applied to it.
	known     refInfo
	haveKnown bool
}

// appWorker handles one app's jobs in order, on its own goroutine: a frozen app delays only its
// own events.
type appWorker struct {
	w      *watchState
	bus    string
	notify chan struct{}

	mu         sync.Mutex
	queue      []job
	running    bool
	pollQueued bool

	// owned by the worker's goroutine
	windows      map[model.NodeRef]winMark
	windowsInit  bool
	lastFocus    focusMark
	unresponsive time.Time
	seen         map[model.NodeRef]seenFlags
	poll         *pollState
	primed       bool
	// pre holds the elements of the current run of events, read together; prior what the watch
	// knew of them before the run.
	pre   map[model.NodeRef]*model.Node
	prior map[model.NodeRef]announced
	// announced is what the watch knew of elements after the runs so far.
	announced map[model.NodeRef]announced
	// pending says a wait was pending on the app when last asked, at pendingAt (waitPending).
	pending   bool
	pendingAt time.Time
}

// announced is what the watch knows of an element's states and name: from the events it delivered and
// from its own baseline (GTK4's re-read), never from reads made for others. An inspection or the
// poller may read a change before its event arrives; that must not make the event look like a
// toolkit repeating itself (GTK4 re-announces unchanged states and names).
type announced struct {
	states, mask stateSet // mask: the states known
	name         string
	haveName     bool
}

// lastAnnounced is what the watch knows of ref: from this run, the runs before, or GTK4's baseline.
func (wk *appWorker) lastAnnounced(ref model.NodeRef) announced {
	if t, ok := wk.prior[ref]; ok {
		return t
	}
	if t, ok := wk.announced[ref]; ok {
		return t
	}
	if wk.poll != nil {
		if it, ok := wk.poll.items[ref]; ok {
			return announced{states: makeStateSet(it.States), mask: ^stateSet(0), name: it.Name, haveName: true}
		}
	}
	return announced{}
}

func (wk *appWorker) push(j job) {
	wk.mu.Lock()
	if len(wk.queue) >= maxQueuedJobs {
		wk.queue = wk.queue[1:]
		wk.w.mu.Lock()
		wk.w.dropped++
		dropped := wk.w.dropped
		wk.w.mu.Unlock()
		if dropped%1000 == 1 {
			wk.w.b.log.Warn("atspi: events dropped: an app sends more than it can be read", "bus", wk.bus, "dropped", dropped)
		}
	}
	wk.queue = append(wk.queue, j)
	wk.mu.Unlock()
	wk.wake()
}

func (wk *appWorker) pushPoll() {
	wk.mu.Lock()
	if wk.pollQueued {
		wk.mu.Unlock()
		return
	}
	wk.pollQueued = true
	wk.queue = append(wk.queue, job{kind: jobPoll, at: time.Now()})
	wk.mu.Unlock()
	wk.wake()
}

func (wk *appWorker) wake() {
	select {
	case wk.notify <- struct{}{}:
	default:
	}
}

// run starts the worker's goroutine.
func (wk *appWorker) run() {
	wk.w.mu.Lock()
	defer wk.w.mu.Unlock()
	if !wk.w.stopped {
		wk.startLocked()
	}
}

// startLocked starts the goroutine; the watch's lock is held.
func (wk *appWorker) startLocked() {
	if wk.running {
		return
	}
	wk.running = true
	wk.w.wg.Add(1)
	go wk.loop()
}

func (wk *appWorker) loop() {
	defer wk.w.wg.Done()
	ctx := wk.w.ctx
	for {
		wk.mu.Lock()
		jobs := wk.queue
		wk.queue = nil
		for _, j := range jobs {
			if j.kind == jobPoll {
				wk.pollQueued = false
			}
		}
		wk.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		if len(jobs) == 0 {
			select {
			case <-ctx.Done():
				return
			case <-wk.notify:
			}
			continue
		}
		for i := 0; i < len(jobs); {
			if jobs[i].kind != jobEvent {
				if wk.handle(ctx, jobs[i]) {
					wk.w.ended(wk)
					return
				}
				i++
				continue
			}
			// A run of events: those the watch can tell go at once; from the first that needs the
			// app on, their elements are read together, in one pipelined read.
			end := i
			for end < len(jobs) && jobs[end].kind == jobEvent {
				end++
			}
			for ; i < end && wk.tellable(jobs[i]); i++ {
				wk.handle(ctx, jobs[i])
			}
			wk.prefetch(ctx, jobs[i:end])
			for _, j := range jobs[i:end] {
				wk.handle(ctx, j)
			}
			if len(wk.announced) > maxAnnounced { // a long-lived app: start afresh rather than grow without bound
				wk.announced = map[model.NodeRef]announced{}
			}
			for ref, t := range wk.prior {
				wk.announced[ref] = t
			}
			wk.pre, wk.prior = nil, nil
			i = end
		}
	}
}

// prefetch reads the elements a run of events is about that the watch cannot tell itself (see
// knownSummary), in one pipelined read, and keeps what was known of them before, so that a
// repeated state or name can still be announced from a change.
func (wk *appWorker) prefetch(ctx context.Context, jobs []job) {
	b := wk.w.b
	wk.pre = map[model.NodeRef]*model.Node{}
	wk.prior = map[model.NodeRef]announced{}
	if time.Now().Before(wk.unresponsive) {
		return
	}
	var refs, added []model.NodeRef
	reading := map[model.NodeRef]bool{}
	fresh := map[model.NodeRef]bool{} // an event about a change of the element's own content
	for _, j := range jobs {
		t, _, ok := Classify(j.raw)
		if !ok || t == model.EventElementDestroyed {
			continue
		}
		ref := eventRef(j)
		if _, dup := wk.prior[ref]; !dup {
			wk.prior[ref] = wk.lastAnnounced(ref)
		}
		if wk.readsChild(t, j) {
			// A new top-level, named by GTK3, is read with the events; while a wait is pending on the
			// app, any other child added is read first, in one round trip, before the app is busy
			// laying it out (Event.Added).
			if c := variantRef(j.data); c != "" && c != ref && !reading[c] {
				reading[c] = true
				if _, dup := wk.prior[c]; !dup {
					wk.prior[c] = wk.lastAnnounced(c)
				}
				if ref == RootRef(wk.bus) {
					refs = append(refs, c)
				} else {
					added = append(added, c)
				}
			}
		}
		if wk.knownSummary(t, j, ref) != nil {
			continue // announced from what the watch knows
		}
		switch t {
		case model.EventValueChanged, model.EventTextChanged, model.EventStateChanged, model.EventTitleChanged:
			fresh[ref] = true
		}
		if !reading[ref] {
			reading[ref] = true
			refs = append(refs, ref)
		}
	}
	for i, n := range b.read(ctx, added, modeAdded, false) {
		if n.Err == nil {
			wk.pre[added[i]] = &n
		}
	}
	if len(refs) == 0 {
		return
	}
	// A busy app (creating a dialog, moving focus) answers late: past the budget the events go
	// with what the cache knows of their elements rather than late, when it knows their role and
	// name. An element it does not know, or whose own value, text, states or name the event is
	// about (the cache holds them as they were), is read to the end: a stale or empty summary
	// would tell a subscriber wrong.
	rctx, cancel := context.WithTimeout(ctx, summaryBudget)
	defer cancel()
	var late []model.NodeRef
	for i, n := range b.read(rctx, refs, modeSummary, false) {
		switch {
		case n.Err == nil:
			wk.pre[refs[i]] = &n
		case model.CodeOf(n.Err) == model.CodeAppNotResponding:
			wk.unresponsive = time.Now().Add(unresponsiveQuiet)
			wk.pre[refs[i]] = nil
		case model.CodeOf(n.Err) == model.CodeTimeout && ctx.Err() == nil:
			if ri, _ := b.cache.get(refs[i]); ri.haveRole && ri.haveName && !fresh[refs[i]] {
				wk.pre[refs[i]] = cachedNode(ri, refs[i])
			} else {
				late = append(late, refs[i])
			}
		default:
			wk.pre[refs[i]] = nil
		}
	}
	for i, n := range b.read(ctx, late, modeSummary, false) {
		wk.pre[late[i]] = nil
		if n.Err == nil {
			wk.pre[late[i]] = &n
		}
	}
}

// cachedNode is an element as the cache knows it (role, name, states), or nil.
func cachedNode(ri refInfo, ref model.NodeRef) *model.Node {
	if !ri.haveRole {
		return nil
	}
	n := &model.Node{Ref: ref, PlatformRole: RoleName(ri.role), Name: ri.name, Secure: ri.secure}
	if ri.haveStates {
		n.States = nodeStates(ri.role, ri.states)
	}
	n.Role = NormaliseRole(ri.role, n.States)
	return n
}

// eventRef is the element an event is about: its source, or the new active descendant.
func eventRef(j job) model.NodeRef {
	if j.raw.Event == "active-descendant-changed" {
		if d := variantRef(j.data); d != "" {
			return d
		}
	}
	return j.src
}

// remember records what an event delivered announced about ref, for the events after it.
func (wk *appWorker) remember(ref model.NodeRef, change func(*announced)) {
	t := wk.lastAnnounced(ref)
	change(&t)
	if wk.prior != nil {
		wk.prior[ref] = t
	} else {
		wk.announced[ref] = t
	}
}

// appInfo returns what is known of the worker's app, asking once when it is not known.
func (wk *appWorker) appInfo(ctx context.Context) *appInfo {
	b := wk.w.b
	if a := b.app(wk.bus); a != nil && a.complete {
		return a
	}
	if a := b.ensureApps(ctx, map[string]bool{wk.bus: true})[wk.bus]; a != nil {
		if a.pid == b.selfPID {
			return nil
		}
		return a
	}
	return nil
}

// eventSummary is the element event j of type t is about: as the watch knows it, or read.
func (wk *appWorker) eventSummary(ctx context.Context, t model.EventType, j job, ref model.NodeRef) *model.Node {
	if n := wk.knownSummary(t, j, ref); n != nil {
		return n
	}
	return wk.summary(ctx, ref)
}

// summary reads the element an event is about, in one pipelined read. After a read of the app
// timed out, events go without summaries for a while, so that a frozen app is not asked again
// for every event.
func (wk *appWorker) summary(ctx context.Context, ref model.NodeRef) *model.Node {
	if n, ok := wk.pre[ref]; ok {
		return n
	}
	if time.Now().Before(wk.unresponsive) {
		return nil
	}
	n := wk.w.b.read(ctx, []model.NodeRef{ref}, modeSummary, false)[0]
	if n.Err != nil {
		if model.CodeOf(n.Err) == model.CodeAppNotResponding {
			wk.unresponsive = time.Now().Add(unresponsiveQuiet)
		}
		return nil
	}
	return &n
}

// readsChild reports whether the child a children-changed:add names is read with the event: a
// new top-level's (its role says whether it is a dialog), and, while a wait is pending on the
// app, any child's (Event.Added).
func (wk *appWorker) readsChild(t model.EventType, j job) bool {
	if t != model.EventChildrenChanged || j.raw.mainKind() != "add" {
		return false
	}
	return eventRef(j) == RootRef(wk.bus) || wk.waitPending()
}

// waitPending reports whether a wait (an expect among them) is pending on the worker's app, as
// the daemon's RecheckWhen gate says. A yes is asked again after a fast recheck period; a no, which
// may have cost the gate a look at the stream's consumers, after notPendingFor: a wait that
// begins just before its event is not missed for long.
func (wk *appWorker) waitPending() bool {
	again := notPendingFor
	if wk.pending {
		again = wk.w.b.cfg.fastRecheck
	}
	if now := time.Now(); now.Sub(wk.pendingAt) >= again {
		rate := wk.w.b.recheckWhen.Load()
		a := wk.w.b.app(wk.bus)
		wk.pending = rate != nil && a != nil && (*rate)(model.App{PID: a.pid, Name: a.name}) == observer.RecheckFast
		wk.pendingAt = now
	}
	return wk.pending
}

// notPendingFor is how long waitPending trusts a no.
const notPendingFor = 10 * time.Millisecond
