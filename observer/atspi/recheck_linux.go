//go:build linux

package atspi

import (
	"context"
	"strconv"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/observer"
)

// The recheck: GTK4 misses events and reports only on elements a client has seen, so a watch
// walks such an app's windows once, then re-reads it every recheck period while someone observes
// it and reports what changed.

// maxPollEvents bounds the events one re-read reports, so that a rebuilt view does not flood.
const maxPollEvents = 200

// polledStates are the states whose changes a re-read reports (not focus, which GTK4 reports
// itself, nor showing/visible, which change with scrolling).
var polledStates = stateNumbers("busy", "checked", "collapsed", "editable", "enabled", "expanded", "modal",
	"pressed", "selected", "sensitive", "indeterminate", "required", "invalid-entry", "read-only")

func stateNumbers(names ...string) []int {
	out := make([]int, 0, len(names))
	for _, n := range names {
		i, ok := StateNumber(n)
		if !ok {
			panic("atspi: unknown state " + n)
		}
		out = append(out, i)
	}
	return out
}

// pollState is what the last re-read of an app saw.
type pollState struct {
	items  map[model.NodeRef]cacheItem
	values map[model.NodeRef]string
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

// seenOf is the kind of change a real event reports, for the re-read's bookkeeping.
func seenOf(r RawEvent) seenFlags {
	if r.Class != "object" {
		return 0
	}
	switch r.Event {
	case "children-changed":
		return seenChildren
	case "state-changed":
		return seenState
	case "value-changed":
		return seenValue
	case "property-change":
		switch r.mainKind() {
		case "accessible-name":
			return seenName
		case "accessible-value":
			return seenValue
		}
	}
	return 0
}

// poller asks the workers of apps whose toolkit misses events to re-read them, at the rate the
// RecheckWhen gate gives each: every fast tick while a wait is pending on it, every slow period
// while someone else observes it.
func (w *watchState) poller() {
	defer w.wg.Done()
	t := time.NewTicker(w.b.cfg.fastRecheck)
	defer t.Stop()
	slowEvery := max(1, int(w.b.cfg.recheck/w.b.cfg.fastRecheck))
	for tick := 1; ; tick++ {
		select {
		case <-w.ctx.Done():
			return
		case <-t.C:
		}
		rate := w.b.recheckWhen.Load()
		w.b.mu.Lock()
		var buses []string
		var apps []model.App
		for bus, a := range w.b.apps {
			if a.recheck && a.complete && a.pid != w.b.selfPID {
				buses = append(buses, bus)
				apps = append(apps, model.App{PID: a.pid, Name: a.name})
			}
		}
		w.b.mu.Unlock()
		for i, bus := range buses {
			r := observer.RecheckSlow
			if rate != nil {
				r = (*rate)(apps[i]) // asked outside the lock: the gate may look at the daemon's state
			}
			if r == observer.RecheckNone || (r == observer.RecheckSlow && tick%slowEvery != 0) {
				continue // nobody observes the app: its missed changes wait for someone who does
			}
			if wk, _ := w.worker(bus, true); wk != nil {
				wk.pushPoll()
			}
		}
	}
}

// recheck re-reads an app whose toolkit misses events (GTK4): the whole tree through
// Cache.GetItems (one call, complete on GTK4) and the values of value-bearing elements, and
// reports what changed with no event of its own, with Raw prefixed "poll:".
func (wk *appWorker) recheck(ctx context.Context) {
	b := wk.w.b
	if time.Now().Before(wk.unresponsive) {
		return
	}
	app := wk.appInfo(ctx)
	if app == nil {
		return
	}
	if !wk.windowsInit {
		wk.initWindows(ctx)
	}
	if wk.poll == nil && !wk.primed {
		wk.prime(ctx, app) // an app first seen now: realise its tree and take the baseline
		return
	}
	items, err := b.cacheItems(ctx, wk.bus)
	if err != nil {
		if model.CodeOf(err) == model.CodeAppNotResponding {
			wk.unresponsive = time.Now().Add(unresponsiveQuiet)
		}
		return
	}
	at := time.Now()
	cur, valued := indexItems(items)
	values := b.readValues(ctx, valued)
	prev := wk.poll
	wk.poll = &pollState{items: cur, values: values}
	seen := wk.seen
	wk.seen = map[model.NodeRef]seenFlags{}
	wk.pendingSeen(seen)
	if prev == nil {
		return // the first re-read is the baseline
	}
	root := RootRef(wk.bus)
	budget := maxPollEvents
	emit := func(t model.EventType, raw string, ref model.NodeRef, detail map[string]any) {
		if budget <= 0 {
			return
		}
		budget--
		wk.emit(ctx, app, t, raw, at, ref, wk.summary(ctx, ref), detail)
	}
	windows := false
	added := map[model.NodeRef]int{}
	for ref, it := range cur {
		if _, ok := prev.items[ref]; ok {
			continue
		}
		parent := MakeRef(it.Parent.Bus, string(it.Parent.Path))
		if parent == root || ref == root {
			windows = true
			continue
		}
		if _, old := prev.items[parent]; old { // report only where a new subtree hangs
			added[parent]++
		}
	}
	// GTK4 realises a new child only when a client lists its parent's children, and says nothing
	// of it: the parent's child count tells.
	delta := map[model.NodeRef]int{}
	for ref, it := range cur {
		if old, ok := prev.items[ref]; ok && old.ChildCount != it.ChildCount {
			delta[ref] = int(it.ChildCount - old.ChildCount)
		}
	}
	removed := map[model.NodeRef]int{}
	for ref, it := range prev.items {
		if _, ok := cur[ref]; ok {
			continue
		}
		parent := MakeRef(it.Parent.Bus, string(it.Parent.Path))
		if parent == root {
			windows = true
			continue
		}
		if _, live := cur[parent]; live {
			removed[parent]++
		}
	}
	if windows {
		wk.syncWindows(ctx, app, "poll:window:create", at)
	}
	parents := map[model.NodeRef]int{}
	for p, n := range added {
		parents[p] += n
	}
	for p, n := range removed {
		parents[p] -= n
	}
	for p, d := range delta {
		if d > 0 && added[p] < d || d < 0 && -removed[p] > d {
			parents[p] = d
		}
	}
	var grown []model.NodeRef
	for p, n := range parents {
		if d := delta[p]; d > 0 {
			grown = append(grown, p)
		}
		if seen[p]&seenChildren != 0 || (n == 0 && delta[p] == 0) {
			continue
		}
		op := "add"
		if n < 0 {
			op, n = "remove", -n
		}
		emit(model.EventChildrenChanged, "poll:object:children-changed:"+op, p, map[string]any{"op": op, "count": n})
	}
	if len(grown) > 0 {
		b.phase(ctx, false, func(c *caller) { // list the new children so that GTK4 realises them
			for _, p := range grown {
				bus, path, _ := ParseRef(p)
				c.call(bus, path, accessibleGetChildren)
			}
		})
	}
	for ref, it := range cur {
		old, ok := prev.items[ref]
		if !ok {
			continue
		}
		if it.Name != old.Name && seen[ref]&seenName == 0 && !(app.gtk4 && gtkClassName.MatchString(it.Name)) {
			emit(model.EventTitleChanged, "poll:object:property-change:accessible-name", ref, nil)
		}
		if seen[ref]&seenState == 0 {
			was, is := makeStateSet(old.States), makeStateSet(it.States)
			for _, st := range polledStates {
				if was.has(st) == is.has(st) {
					continue
				}
				_, d, _ := Classify(RawEvent{Class: "object", Event: "state-changed", Kind: StateName(st), D1: boolInt(is.has(st))})
				emit(model.EventStateChanged, "poll:object:state-changed:"+StateName(st), ref, d)
			}
		}
	}
	for ref, v := range values {
		if old, ok := prev.values[ref]; ok && old != v && seen[ref]&seenValue == 0 {
			emit(model.EventValueChanged, "poll:object:value-changed", ref, nil)
		}
	}
}

// pendingSeen marks the changes that real events still waiting in the queue will report.
func (wk *appWorker) pendingSeen(seen map[model.NodeRef]seenFlags) {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	for _, j := range wk.queue {
		if j.kind == jobEvent {
			if f := seenOf(j.raw); f != 0 {
				seen[j.src] |= f
				wk.seen[j.src] |= f // the event will set it again; the next re-read must not report it either
			}
		}
	}
}

func boolInt(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// readValues reads Value.CurrentValue of many elements, pipelined.
func (b *Backend) readValues(ctx context.Context, refs []model.NodeRef) map[model.NodeRef]string {
	out := make(map[model.NodeRef]string, len(refs))
	if len(refs) == 0 {
		return out
	}
	calls := make([]*dbus.Call, len(refs))
	b.phase(ctx, false, func(c *caller) {
		for i, ref := range refs {
			bus, path, _ := ParseRef(ref)
			calls[i] = c.prop(bus, path, ifaceValue, "CurrentValue")
		}
	})
	for i, c := range calls {
		var v dbus.Variant
		if c == nil || c.Store(&v) != nil {
			continue
		}
		if f, ok := variantFloat(v); ok {
			out[refs[i]] = strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	return out
}

// indexItems maps cache items by element, and lists the elements with a value to re-read (never
// a secure one's).
func indexItems(items []cacheItem) (map[model.NodeRef]cacheItem, []model.NodeRef) {
	cur := make(map[model.NodeRef]cacheItem, len(items))
	var valued []model.NodeRef
	for _, it := range items {
		ref := MakeRef(it.Self.Bus, string(it.Self.Path))
		cur[ref] = it
		if !IsSecureRole(it.Role) && parseIfaces(it.Ifaces).has(ifValue) {
			valued = append(valued, ref)
		}
	}
	return cur, valued
}

// prime makes a GTK4 app emit events and takes the re-read baseline: GTK4 reports changes only of
// elements a client has seen, so every window of the app is walked once (pipelined) first.
func (wk *appWorker) prime(ctx context.Context, app *appInfo) {
	wk.primed = true
	for ref := range wk.windows {
		wk.realize(ctx, ref)
	}
	items, err := wk.w.b.cacheItems(ctx, wk.bus)
	if err != nil {
		return
	}
	cur, valued := indexItems(items)
	wk.poll = &pollState{items: cur, values: wk.w.b.readValues(ctx, valued)}
	_ = app
}

// realize walks a window once, so that the toolkit creates (and then reports on) its elements.
func (wk *appWorker) realize(ctx context.Context, win model.NodeRef) {
	observer.Walk(ctx, wk.w.b, win, observer.WalkOptions{Budget: model.WideBudget()})
}
