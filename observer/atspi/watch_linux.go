//go:build linux

package atspi

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/observer"
)

// Tuning of event handling.
const (
	maxQueuedJobs     = 5000                   // per app; beyond it the oldest events are dropped
	focusDedupe       = 250 * time.Millisecond // GTK4 reports a focus change twice (focus: and state-changed:focused)
	unresponsiveQuiet = 2 * time.Second        // after a read timed out, events of the app go without element summaries
	launchRetries     = 8                      // an app may not answer yet when it registers
	launchRetryDelay  = 100 * time.Millisecond
	// summaryBudget bounds the read of the elements of a run of events: the event on the bus within
	// 50 ms of the change matters more than a complete summary.
	summaryBudget = 30 * time.Millisecond
	// maxTold bounds what a watch remembers of an app's elements' states and names.
	maxTold = 50_000
)

// dispatch is the backend's one signal consumer: focus tracking, app lifecycle and registry
// restarts for everybody, events for the watch.
func (b *Backend) dispatch() {
	defer b.wg.Done()
	for {
		batch, ok := b.sigs.take()
		if !ok {
			return
		}
		for _, a := range batch {
			b.handleSignal(a.sig, a.at)
		}
	}
}

func (b *Backend) handleSignal(s *dbus.Signal, at time.Time) {
	if s.Name == dbusName+".NameOwnerChanged" {
		var name, old, neu string
		if dbus.Store(s.Body, &name, &old, &neu) != nil {
			return
		}
		switch {
		case name == registryName && neu != "":
			b.registryRestarted(neu)
		case strings.HasPrefix(name, ":") && neu == "" && old != "":
			b.appGone(name, at, "NameOwnerChanged")
		}
		return
	}
	i := strings.LastIndexByte(s.Name, '.')
	if i < 0 {
		return
	}
	class := eventClass(s.Name[:i])
	if class == "" || len(s.Body) < 4 {
		return
	}
	raw := RawEvent{Class: class, Event: hyphenate(s.Name[i+1:])}
	raw.Kind, _ = s.Body[0].(string)
	raw.D1, _ = s.Body[1].(int32)
	raw.D2, _ = s.Body[2].(int32)
	data, _ := s.Body[3].(dbus.Variant)
	src := MakeRef(s.Sender, string(s.Path))

	b.mu.Lock()
	registry := b.registry
	w := b.watch
	b.mu.Unlock()
	if s.Sender == registry && string(s.Path) == rootPath {
		if raw.Event == "children-changed" {
			app := variantRef(data)
			bus, _, ok := ParseRef(app)
			if !ok || bus == b.self {
				return
			}
			switch raw.mainKind() {
			case "add":
				b.appLaunched(bus, at, raw.Name())
			case "remove":
				b.appGone(bus, at, raw.Name())
			}
		}
		return
	}
	switch {
	case raw.Class == "object" && raw.Event == "state-changed" && raw.mainKind() == "focused":
		b.trackFocus(s.Sender, src, raw.D1 != 0, at)
	case raw.Class == "focus":
		b.trackFocus(s.Sender, src, true, at)
	case raw.Class == "object" && raw.Event == "property-change" && raw.mainKind() == "accessible-role":
		b.cache.update(src, func(ri *refInfo) { ri.haveRole = false }) // read it again next time
	case raw.Class == "object" && raw.Event == "children-changed":
		b.cache.update(src, func(ri *refInfo) { ri.children = nil }) // list them again next time
	case raw.Class == "object" && (raw.Event == "text-changed" ||
		raw.Event == "property-change" && raw.mainKind() == "accessible-name"):
		b.cache.update(src, func(ri *refInfo) { ri.haveText = false }) // read it again next time
	}
	if w != nil {
		w.enqueue(s.Sender, job{kind: jobEvent, raw: raw, src: src, data: data, at: at})
	}
}

// registryRestarted re-registers the events with a new registry, which knows none of them.
func (b *Backend) registryRestarted(owner string) {
	b.mu.Lock()
	changed := b.registry != owner
	b.registry = owner
	watching := b.watch != nil
	closed := b.closed
	b.mu.Unlock()
	if !changed || closed {
		return
	}
	b.log.Info("atspi: the registry restarted; registering the events again", "owner", owner)
	b.rememberConnections()
	events := []string{focusEvent}
	if watching {
		events = append(events, registeredEvents...)
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 2*b.cfg.callTimeout)
		defer cancel()
		go func() {
			select {
			case <-b.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		b.registerEvents(ctx, events)
	}()
}

// rememberConnections notes the connections on the accessibility bus as the registry restarts:
// the apps among them register with the new registry, and are not launched by that. It runs on
// the dispatch goroutine, before the signals of those registrations are handled.
func (b *Backend) rememberConnections() {
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.callTimeout)
	defer cancel()
	var names []string
	if err := b.conn.BusObject().CallWithContext(ctx, dbusName+".ListNames", 0).Store(&names); err != nil {
		b.log.Warn("atspi: cannot list the connections as the registry restarts; their apps may be announced again", "err", err)
		return
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		if strings.HasPrefix(n, ":") {
			set[n] = true
		}
	}
	b.mu.Lock()
	b.reannounce = set
	b.mu.Unlock()
}

// appLaunched handles a new registration with the registry: a launch, or an app that was
// running already registering with a restarted registry.
func (b *Backend) appLaunched(bus string, at time.Time, raw string) {
	b.mu.Lock()
	again := b.reannounce[bus]
	delete(b.reannounce, bus)
	w := b.watch
	b.mu.Unlock()
	kind := jobLaunched
	if again {
		kind = jobRegisteredAgain
	}
	if w != nil {
		w.enqueue(bus, job{kind: kind, at: at, rawName: raw})
	}
}

// appGone forgets an app whose bus name vanished or that left the registry, and reports it once.
func (b *Backend) appGone(bus string, at time.Time, raw string) {
	b.mu.Lock()
	a := b.apps[bus]
	delete(b.apps, bus)
	delete(b.focus, bus)
	w := b.watch
	b.mu.Unlock()
	b.cache.dropApp(bus)
	b.dropPeer(bus)
	if w == nil {
		return
	}
	if a == nil || a.pid == b.selfPID {
		w.endQuietly(bus) // never known as an app: end its worker, if any, without an event
		return
	}
	cp := *a
	w.enqueue(bus, job{kind: jobGone, at: at, app: &cp, rawName: raw})
}

// Watch delivers normalised events to sink until stop is called. The first watch registers the
// AT-SPI events with the registry (GTK3 emits nothing until someone does) and, for toolkits that
// miss events (GTK4), starts re-reading them every recheck period; the last stop undoes both.
// sink must not block.
func (b *Backend) Watch(sink func(observer.Event)) (stop func(), err error) {
	if sink == nil {
		return nil, observer.Errorf(observer.CodeBadRequest, "Pass a function that receives the events.", "nil sink")
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, errClosed()
	}
	w := b.watch
	first := w == nil
	if first {
		w = newWatchState(b)
		b.watch = w
	}
	id := w.sinks.Add(sink)
	b.mu.Unlock()
	if first {
		w.start()
	} else {
		<-w.started
	}
	var once sync.Once
	return func() { once.Do(func() { b.unwatch(w, id) }) }, nil
}

func (b *Backend) unwatch(w *watchState, id int) {
	last := w.sinks.Remove(id)
	if !last {
		return
	}
	b.mu.Lock()
	mine := b.watch == w
	if mine {
		b.watch = nil
	}
	b.mu.Unlock()
	if !mine {
		return // Close stopped it
	}
	w.stop()
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.callTimeout)
	defer cancel()
	b.deregisterEvents(ctx, registeredEvents)
}

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
	src     observer.NodeRef
	data    dbus.Variant
	at      time.Time
	app     *appInfo
}

// watchState is one watch: its sinks, the per-app workers and the poller.
type watchState struct {
	b       *Backend
	ctx     context.Context
	cancel  context.CancelFunc
	started chan struct{}
	sinks   observer.Sinks

	mu      sync.Mutex
	workers map[string]*appWorker
	gone    map[string]bool
	stopped bool
	dropped uint64
	wg      sync.WaitGroup
}

func newWatchState(b *Backend) *watchState {
	ctx, cancel := context.WithCancel(context.Background())
	return &watchState{b: b, ctx: ctx, cancel: cancel, started: make(chan struct{}),
		workers: map[string]*appWorker{}, gone: map[string]bool{}}
}

// start learns the windows of the known apps (so that later window events can be told apart),
// registers the events and starts the poller.
func (w *watchState) start() {
	defer close(w.started)
	b := w.b
	b.mu.Lock()
	var apps []*appInfo
	for _, a := range b.apps {
		cp := *a
		apps = append(apps, &cp)
	}
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(w.ctx, 2*b.cfg.callTimeout)
	defer cancel()
	var wg sync.WaitGroup
	var workers []*appWorker
	for _, a := range apps {
		wk, created := w.worker(a.bus, false)
		if !created {
			continue // an event of the app came first and started its worker, which learns by itself
		}
		workers = append(workers, wk)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if wins, err := b.listWindows(ctx, a); err == nil {
				wk.setWindows(wins)
			}
			if a.recheck && a.pid != b.selfPID {
				wk.prime(w.ctx, a)
			}
		}()
	}
	wg.Wait()
	for _, wk := range workers {
		wk.run()
	}
	b.registerEvents(ctx, registeredEvents)
	// Apps learn of registrations through a registry signal; a round trip to each app over the
	// bus, sent after the registration returned, ends after the app has read that signal (the
	// bus hands one app its messages in order), so nothing is missed from the moment Watch
	// returns. Not over the peer connection: that socket has no order with the bus's.
	var calls []*dbus.Call
	for _, a := range apps {
		calls = append(calls, b.conn.Object(a.bus, rootPath).GoWithContext(ctx, ifaceAccessible+".GetRole", 0, nil))
	}
	for _, c := range calls {
		<-c.Done
	}
	w.wg.Add(1)
	go w.poller()
}

// stop ends the watch: no sink is called once it returns.
func (w *watchState) stop() {
	<-w.started
	w.sinks.Close()
	w.mu.Lock()
	w.stopped = true
	for _, wk := range w.workers {
		wk.wake()
	}
	w.mu.Unlock()
	w.cancel()
	w.wg.Wait()
}

// worker returns the app's worker, creating it (and starting it when start is set); created
// tells whether it is new. There is none once the watch stopped or the app is gone.
func (w *watchState) worker(bus string, start bool) (wk *appWorker, created bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped || w.gone[bus] {
		return nil, false
	}
	wk = w.workers[bus]
	if wk == nil {
		wk = &appWorker{w: w, bus: bus, notify: make(chan struct{}, 1), windows: map[observer.NodeRef]winMark{},
			seen: map[observer.NodeRef]seenFlags{}, told: map[observer.NodeRef]told{}}
		w.workers[bus] = wk
		created = true
		if start {
			wk.startLocked()
		}
	}
	return wk, created
}

// enqueue hands a job to the app's worker.
func (w *watchState) enqueue(bus string, j job) {
	if wk, _ := w.worker(bus, true); wk != nil {
		wk.push(j)
	}
}

// endQuietly ends the worker of a bus that was never known as an app.
func (w *watchState) endQuietly(bus string) {
	w.mu.Lock()
	wk := w.workers[bus]
	w.mu.Unlock()
	if wk != nil {
		wk.push(job{kind: jobGone})
	}
}

// ended records that the app on bus is gone: unique bus names are never reused, so nothing
// more is done for it.
func (w *watchState) ended(wk *appWorker) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.workers[wk.bus] == wk {
		delete(w.workers, wk.bus)
	}
	if len(w.gone) > 10000 {
		w.gone = map[string]bool{}
	}
	w.gone[wk.bus] = true
}

// deliver hands an event to every sink.
func (w *watchState) deliver(ev observer.Event) { w.sinks.Deliver(ev) }

// poller asks the workers of apps whose toolkit misses events to re-read them, those the
// RecheckWhen gate says someone observes.
func (w *watchState) poller() {
	defer w.wg.Done()
	t := time.NewTicker(w.b.cfg.recheck)
	defer t.Stop()
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-t.C:
		}
		observed := w.b.recheckWhen.Load()
		w.b.mu.Lock()
		var buses []string
		var apps []observer.App
		for bus, a := range w.b.apps {
			if a.recheck && a.complete && a.pid != w.b.selfPID {
				buses = append(buses, bus)
				apps = append(apps, observer.App{PID: a.pid, Name: a.name})
			}
		}
		w.b.mu.Unlock()
		for i, bus := range buses {
			if observed != nil && !(*observed)(apps[i]) { // asked outside the lock: the gate may look at the daemon's state
				continue // nobody observes the app: its missed changes wait for someone who does
			}
			if wk, _ := w.worker(bus, true); wk != nil {
				wk.pushPoll()
			}
		}
	}
}

// winMark is a known top-level window of an app.
type winMark struct {
	role  uint32
	title string
	id    string
}

// seenFlags records which real events arrived for an element since the last re-read, so that a
// re-read does not report the same change again.
type seenFlags uint8

const (
	seenChildren seenFlags = 1 << iota
	seenName
	seenState
	seenValue
)

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
	windows      map[observer.NodeRef]winMark
	windowsInit  bool
	lastFocus    focusMark
	unresponsive time.Time
	seen         map[observer.NodeRef]seenFlags
	poll         *pollState
	primed       bool
	// pre holds the elements of the current run of events, read together; prior what the watch
	// knew of them before the run.
	pre   map[observer.NodeRef]*observer.Node
	prior map[observer.NodeRef]told
	// told is what the watch knew of elements after the runs so far.
	told map[observer.NodeRef]told
}

// told is what the watch knows of an element's states and name: from the events it delivered and
// from its own baseline (GTK4's re-read), never from reads made for others. An inspection or the
// poller may read a change before its event arrives; that must not make the event look like a
// toolkit repeating itself (GTK4 re-announces unchanged states and names).
type told struct {
	states, mask stateSet // mask: the states known
	name         string
	haveName     bool
}

// lastTold is what the watch knows of ref: from this run, the runs before, or GTK4's baseline.
func (wk *appWorker) lastTold(ref observer.NodeRef) told {
	if t, ok := wk.prior[ref]; ok {
		return t
	}
	if t, ok := wk.told[ref]; ok {
		return t
	}
	if wk.poll != nil {
		if it, ok := wk.poll.items[ref]; ok {
			return told{states: makeStateSet(it.States), mask: ^stateSet(0), name: it.Name, haveName: true}
		}
	}
	return told{}
}

func (wk *appWorker) setWindows(wins []observer.Window) {
	for _, win := range wins {
		wk.windows[win.Ref] = wk.markOf(win)
	}
	wk.windowsInit = true
}

// markOf describes a listed window, with its numeric role when the cache knows it.
func (wk *appWorker) markOf(win observer.Window) winMark {
	role := uint32(roleFrame)
	if ri, ok := wk.w.b.cache.get(win.Ref); ok && ri.haveRole {
		role = ri.role
	} else if win.Role == observer.RoleDialog {
		role = roleDialog
	}
	return winMark{role: role, title: win.Title, id: win.ID}
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
			// A run of events: their elements are read together, in one pipelined read.
			end := i
			for end < len(jobs) && jobs[end].kind == jobEvent {
				end++
			}
			wk.prefetch(ctx, jobs[i:end])
			for _, j := range jobs[i:end] {
				wk.handle(ctx, j)
			}
			if len(wk.told) > maxTold { // a long-lived app: start afresh rather than grow without bound
				wk.told = map[observer.NodeRef]told{}
			}
			for ref, t := range wk.prior {
				wk.told[ref] = t
			}
			wk.pre, wk.prior = nil, nil
			i = end
		}
	}
}

// prefetch reads the elements a run of events is about, in one pipelined read, and keeps what
// was known of them before, so that a repeated state or name can still be told from a change.
func (wk *appWorker) prefetch(ctx context.Context, jobs []job) {
	b := wk.w.b
	wk.pre = map[observer.NodeRef]*observer.Node{}
	wk.prior = map[observer.NodeRef]told{}
	if time.Now().Before(wk.unresponsive) {
		return
	}
	var refs []observer.NodeRef
	fresh := map[observer.NodeRef]bool{} // an event about a change of the element's own content
	for _, j := range jobs {
		t, _, ok := Classify(j.raw)
		if !ok || t == observer.EventElementDestroyed {
			continue
		}
		ref := eventRef(j)
		switch t {
		case observer.EventValueChanged, observer.EventTextChanged, observer.EventStateChanged, observer.EventTitleChanged:
			fresh[ref] = true
		}
		if _, dup := wk.prior[ref]; dup {
			continue
		}
		wk.prior[ref] = wk.lastTold(ref)
		refs = append(refs, ref)
		if t == observer.EventChildrenChanged && j.raw.mainKind() == "add" && ref == RootRef(wk.bus) {
			if c := variantRef(j.data); c != "" && c != ref { // a new top-level, named by GTK3
				if _, dup := wk.prior[c]; !dup {
					wk.prior[c] = wk.lastTold(c)
					refs = append(refs, c)
				}
			}
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
	var late []observer.NodeRef
	for i, n := range b.read(rctx, refs, modeSummary, false) {
		switch {
		case n.Err == nil:
			wk.pre[refs[i]] = &n
		case observer.CodeOf(n.Err) == observer.CodeAppNotResponding:
			wk.unresponsive = time.Now().Add(unresponsiveQuiet)
			wk.pre[refs[i]] = nil
		case observer.CodeOf(n.Err) == observer.CodeTimeout && ctx.Err() == nil:
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
func cachedNode(ri refInfo, ref observer.NodeRef) *observer.Node {
	if !ri.haveRole {
		return nil
	}
	n := &observer.Node{Ref: ref, PlatformRole: RoleName(ri.role), Name: ri.name, Secure: ri.secure}
	if ri.haveStates {
		n.States = nodeStates(ri.role, ri.states)
	}
	n.Role = NormaliseRole(ri.role, n.States)
	return n
}

// eventRef is the element an event is about: its source, or the new active descendant.
func eventRef(j job) observer.NodeRef {
	if j.raw.Event == "active-descendant-changed" {
		if d := variantRef(j.data); d != "" {
			return d
		}
	}
	return j.src
}

// known is what was known of ref before the current run of events was read.
// remember records what an event delivered told about ref, for the events after it.
func (wk *appWorker) remember(ref observer.NodeRef, change func(*told)) {
	t := wk.lastTold(ref)
	change(&t)
	if wk.prior != nil {
		wk.prior[ref] = t
	} else {
		wk.told[ref] = t
	}
}

// handle does one job; it reports true when the app is gone and the worker should end.
func (wk *appWorker) handle(ctx context.Context, j job) bool {
	b := wk.w.b
	switch j.kind {
	case jobGone:
		if j.app != nil {
			wk.w.deliver(observer.Event{Time: j.at, App: j.app.ref(), Type: observer.EventAppTerminated, Raw: j.rawName,
				Detail: map[string]any{"bus": wk.bus}})
		}
		return true
	case jobLaunched:
		wk.launched(ctx, j)
		return false
	case jobRegisteredAgain:
		wk.registeredAgain(ctx, j)
		return false
	case jobPoll:
		wk.recheck(ctx)
		return false
	}
	if !wk.windowsInit {
		wk.initWindows(ctx)
	}
	t, detail, ok := Classify(j.raw)
	if !ok {
		return false
	}
	app := wk.appInfo(ctx)
	if app == nil {
		return false
	}
	ref := eventRef(j)
	rawName := j.raw.Name()
	var prevName string
	havePrev := false
	switch t {
	case observer.EventFocusChanged:
		if wk.lastFocus.ref == ref && j.at.Sub(wk.lastFocus.at) < focusDedupe {
			return false
		}
		wk.lastFocus = focusMark{ref: ref, at: j.at}
	case observer.EventStateChanged:
		wk.seen[ref] |= seenState
		if i, ok := StateNumber(j.raw.mainKind()); ok {
			if t := wk.lastTold(ref); t.mask.has(i) && t.states.has(i) == (j.raw.D1 != 0) {
				return false // no change: the toolkit repeats itself
			}
			wk.remember(ref, func(t *told) {
				t.mask |= 1 << uint(i)
				if j.raw.D1 != 0 {
					t.states |= 1 << uint(i)
				} else {
					t.states &^= 1 << uint(i)
				}
			})
		}
	case observer.EventTitleChanged:
		wk.seen[ref] |= seenName
		if t := wk.lastTold(ref); t.haveName {
			prevName, havePrev = t.name, true
		}
	case observer.EventValueChanged:
		wk.seen[ref] |= seenValue
	case observer.EventChildrenChanged:
		wk.seen[ref] |= seenChildren
	case observer.EventElementDestroyed:
		delete(wk.told, ref)
		wk.destroyed(ctx, app, ref, rawName, j.at)
		return false
	}
	node := wk.summary(ctx, ref)
	if t == observer.EventTitleChanged && node != nil {
		if havePrev && node.Name == prevName {
			return false // the name did not change
		}
		wk.remember(ref, func(t *told) { t.name, t.haveName = node.Name, true })
	}
	if t == observer.EventWindowCreated || t == observer.EventWindowClosed {
		role := uint32(roleFrame)
		if node != nil {
			role, _ = RoleNumber(node.PlatformRole)
		} else if ri, ok := b.cache.get(ref); ok && ri.haveRole {
			role = ri.role
		}
		t = refineType(t, role)
		if t == observer.EventWindowCreated || t == observer.EventDialogOpened || t == observer.EventMenuOpened {
			if _, known := wk.windows[ref]; known {
				return false // announced already (children-changed on the root came first)
			}
			title := ""
			if node != nil {
				title = node.Name
			}
			_, path, _ := ParseRef(ref)
			wk.windows[ref] = winMark{role: role, title: title, id: windowID(path)}
		} else {
			if _, known := wk.windows[ref]; !known && t == observer.EventWindowClosed {
				return false
			}
			defer delete(wk.windows, ref)
		}
	}
	wk.emit(ctx, app, t, rawName, j.at, ref, node, detail)
	if t == observer.EventChildrenChanged && ref == RootRef(wk.bus) && !wk.rootChild(ctx, app, j, rawName) {
		wk.syncWindows(ctx, app, rawName, j.at)
	}
	if t == observer.EventTitleChanged {
		if wm, ok := wk.windows[ref]; ok && node != nil {
			wm.title = node.Name
			wk.windows[ref] = wm
		}
	}
	return false
}

// rootChild reports a top-level added to or removed from the app's root straight from the event
// (GTK3 names the child in it), and says whether it could; GTK4 names the root itself, and the
// caller lists the windows again.
func (wk *appWorker) rootChild(ctx context.Context, app *appInfo, j job, raw string) bool {
	child := variantRef(j.data)
	if child == "" || child == j.src {
		return false
	}
	switch j.raw.mainKind() {
	case "add":
		if _, known := wk.windows[child]; known {
			return true
		}
		n := wk.pre[child]
		if n == nil || n.PlatformRole == "" { // not read within the summary budget: read it alone
			if r := wk.w.b.read(ctx, []observer.NodeRef{child}, modeWindow, false)[0]; r.Err == nil {
				n = &r
			}
		}
		if n == nil {
			return false
		}
		role, _ := RoleNumber(n.PlatformRole)
		if !isWindowRole(role) && !isMenuRole(role) {
			return true
		}
		_, path, _ := ParseRef(child)
		wk.windows[child] = winMark{role: role, title: n.Name, id: windowID(path)}
		wk.emit(ctx, app, openedType(role), raw, j.at, child, n, nil)
		if app.recheck && wk.poll != nil {
			wk.realize(ctx, child)
		}
		return true
	case "remove":
		wm, known := wk.windows[child]
		if known {
			node := &observer.Node{Ref: child, Role: NormaliseRole(wm.role, 0), PlatformRole: RoleName(wm.role), Name: wm.title}
			wk.emit(ctx, app, closedType(wm.role), raw, j.at, child, node, nil)
			delete(wk.windows, child)
		}
		return true
	}
	return false
}

// destroyed reports an element's destruction (state-changed:defunct), and the end of the window
// when it was a top-level: GTK4 closes a dialog with nothing else.
func (wk *appWorker) destroyed(ctx context.Context, app *appInfo, ref observer.NodeRef, raw string, at time.Time) {
	b := wk.w.b
	ri, _ := b.cache.get(ref)
	node := cachedNode(ri, ref)
	if node != nil {
		node.States |= observer.StateDefunct
	}
	wm, isWin := wk.windows[ref]
	if isWin && node == nil {
		node = &observer.Node{Ref: ref, Role: NormaliseRole(wm.role, 0), PlatformRole: RoleName(wm.role), Name: wm.title}
	}
	wk.emit(ctx, app, observer.EventElementDestroyed, raw, at, ref, node, nil)
	if isWin {
		if t := closedType(wm.role); t != "" {
			wk.emit(ctx, app, t, raw, at, ref, node, nil)
		}
		delete(wk.windows, ref)
	}
	b.cache.forget(ref)
}

// launched reports a new app and the windows it has already.
func (wk *appWorker) launched(ctx context.Context, j job) {
	b := wk.w.b
	var app *appInfo
	for i := 0; i < launchRetries && ctx.Err() == nil; i++ {
		if infos := b.fetchApps(ctx, []string{wk.bus}, true, slog.LevelDebug); infos[wk.bus] != nil {
			app = infos[wk.bus]
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(launchRetryDelay):
		}
	}
	if app == nil || app.pid == b.selfPID {
		return
	}
	wk.w.deliver(observer.Event{Time: j.at, App: app.ref(), Type: observer.EventAppLaunched, Raw: j.rawName,
		Detail: map[string]any{"bus": wk.bus, "toolkit": app.toolkit}, Instance: wk.bus})
	wk.windowsInit = true
	// Every window of a launched app is new, also one its own earlier events made known
	// (window:activate may arrive before the registry announces the app).
	wk.windows = map[observer.NodeRef]winMark{}
	// An app may register before its first window exists, and GTK4 announces no window:create:
	// look again for a while until the window shows.
	for i := 0; i < launchRetries && ctx.Err() == nil; i++ {
		if wk.syncWindows(ctx, app, "poll:window:create", j.at); len(wk.windows) > 0 {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(launchRetryDelay):
		}
	}
	if app.recheck {
		wk.prime(ctx, app)
	}
}

// registeredAgain handles an app that was running registering with a restarted registry: the
// same instance, so nothing is announced but what really changed in its windows meanwhile.
func (wk *appWorker) registeredAgain(ctx context.Context, j job) {
	if !wk.windowsInit {
		wk.initWindows(ctx)
		return
	}
	if app := wk.appInfo(ctx); app != nil {
		wk.syncWindows(ctx, app, "poll:window:create", j.at)
	}
}

// initWindows learns the app's windows silently (an app first seen through one of its events).
func (wk *appWorker) initWindows(ctx context.Context) {
	wk.windowsInit = true
	app := wk.appInfo(ctx)
	if app == nil {
		return
	}
	if wins, err := wk.w.b.listWindows(ctx, app); err == nil {
		wk.setWindows(wins)
	}
}

// syncWindows lists the app's windows again and reports the new and the vanished ones: GTK4
// announces a new top-level only as children-changed:add on the root pointing at the root.
func (wk *appWorker) syncWindows(ctx context.Context, app *appInfo, raw string, at time.Time) {
	b := wk.w.b
	wins, err := b.listWindows(ctx, app)
	if err != nil {
		return
	}
	now := map[observer.NodeRef]bool{}
	for _, win := range wins {
		now[win.Ref] = true
		if _, known := wk.windows[win.Ref]; known {
			continue
		}
		wm := wk.markOf(win)
		role := wm.role
		wk.windows[win.Ref] = wm
		if app.recheck && wk.poll != nil {
			wk.realize(ctx, win.Ref) // GTK4 emits events only for elements a client has seen
		}
		node := &observer.Node{Ref: win.Ref, Role: NormaliseRole(role, 0), PlatformRole: RoleName(role), Name: win.Title,
			Bounds: win.Bounds}
		if win.Focused {
			node.States |= observer.StateActive
		}
		wk.emit(ctx, app, openedType(role), raw, at, win.Ref, node, nil)
	}
	for ref, wm := range wk.windows {
		if now[ref] {
			continue
		}
		delete(wk.windows, ref)
		node := &observer.Node{Ref: ref, Role: NormaliseRole(wm.role, 0), PlatformRole: RoleName(wm.role), Name: wm.title}
		closedRaw := raw
		if strings.HasPrefix(raw, "poll:") {
			closedRaw = "poll:window:destroy"
		}
		wk.emitWin(app, closedType(wm.role), closedRaw, at, ref, node, nil, &observer.WindowRef{ID: wm.id, Title: wm.title})
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

// summary reads the element an event is about, in one pipelined read. After a read of the app
// timed out, events go without summaries for a while, so that a frozen app is not asked again
// for every event.
func (wk *appWorker) summary(ctx context.Context, ref observer.NodeRef) *observer.Node {
	if n, ok := wk.pre[ref]; ok {
		return n
	}
	if time.Now().Before(wk.unresponsive) {
		return nil
	}
	n := wk.w.b.read(ctx, []observer.NodeRef{ref}, modeSummary, false)[0]
	if n.Err != nil {
		if observer.CodeOf(n.Err) == observer.CodeAppNotResponding {
			wk.unresponsive = time.Now().Add(unresponsiveQuiet)
		}
		return nil
	}
	return &n
}

// windowFor names the window that holds ref: ref itself, the app's only window, or the window
// found by climbing ref's parents.
func (wk *appWorker) windowFor(ctx context.Context, ref observer.NodeRef) *observer.WindowRef {
	if wm, ok := wk.windows[ref]; ok {
		return &observer.WindowRef{ID: wm.id, Title: wm.title}
	}
	if ref == RootRef(wk.bus) {
		return nil
	}
	if len(wk.windows) == 1 {
		for _, wm := range wk.windows {
			return &observer.WindowRef{ID: wm.id, Title: wm.title}
		}
	}
	if win, ok := wk.w.b.windowOf(ctx, wk.bus, ref); ok {
		if wm, ok := wk.windows[win]; ok {
			return &observer.WindowRef{ID: wm.id, Title: wm.title}
		}
	}
	return nil
}

// emit delivers one event about ref.
func (wk *appWorker) emit(ctx context.Context, app *appInfo, t observer.EventType, raw string, at time.Time,
	ref observer.NodeRef, node *observer.Node, detail map[string]any) {
	wk.emitWin(app, t, raw, at, ref, node, detail, wk.windowFor(ctx, ref))
}

func (wk *appWorker) emitWin(app *appInfo, t observer.EventType, raw string, at time.Time,
	ref observer.NodeRef, node *observer.Node, detail map[string]any, win *observer.WindowRef) {
	if t == "" {
		return
	}
	ev := observer.Event{Time: at, App: app.ref(), Window: win, Type: t, Raw: raw, Detail: detail, Ref: ref}
	if node != nil {
		ev.Element, ev.Secure = node.Summary(), node.Secure
	}
	if !ev.Secure && ref != "" {
		ri, _ := wk.w.b.cache.get(ref)
		ev.Secure = ri.secure // known from an earlier read, when the event came without a summary
	}
	wk.w.deliver(ev)
}
