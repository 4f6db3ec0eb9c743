package waiters

import (
	"context"
	"slices"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// While a window's copy is being read whole (load.go), the events of its app still come: a
// round reads the elements they name, each with its subtree (what an event changed), and the
// waits that hold as soon as one element matches are looked at on what it read. The read comes
// after the event, so a match is as confirmed as a second read would make it, and the subtree
// read is the reply's listing: nothing waits for the window's whole read.

// maxProbes bounds the subtrees one round reads for the waits whose windows are being read.
const maxProbes = 8

// probed is what a round read of the elements its events named in windows being read whole.
type probed struct {
	reads []probeRead
}

// probeRead is one element's subtree, read after the event that named it.
type probeRead struct {
	win   model.Window
	walk  observer.WalkResult
	nodes []*model.Node
	ev    model.Event
}

// appears reports whether w holds as soon as one element matches: what one element read on its
// own may meet.
func (w *wait) appears() bool {
	return w.loc == nil && w.scope == "" && w.cond.AppearsOnly() && w.cond.NeedsElements()
}

// probes reports whether w may be met by what a round's events named in a window being read:
// its condition holds as soon as one element matches, and one of its windows is being read.
func (aw *appWatch) probes(w *wait) bool { return w.appears() && aw.loadingFor(w) }

// addedByEvents is what the round's events added, as the backend read it right after each event
// (model.Event.Added): read after the event, it needs no read of its own. A GTK3 app lays a
// new label out from ~1.5 ms after adding it and answers no read for 15-25 ms meanwhile: the
// backend's read, made as the event came, is what answers a wait in milliseconds.
func (aw *appWatch) addedByEvents(evs []model.Event) *probed {
	p := &probed{}
	for _, ev := range evs {
		if ev.Added == nil || ev.Window == nil || ev.Type != model.EventChildrenChanged {
			continue
		}
		i := slices.IndexFunc(aw.windows, func(w model.Window) bool { return w.ID == ev.Window.ID })
		if i < 0 {
			continue
		}
		n := *ev.Added
		walk := observer.WalkResult{Nodes: []observer.Walked{{Node: n, Parent: -1}}}
		p.reads = append(p.reads, probeRead{win: aw.windows[i], walk: walk, nodes: []*model.Node{&walk.Nodes[0].Node}, ev: ev})
	}
	return p
}

// probe reads the subtrees the events named (latest first) in windows being read whole: for a
// child added, the child's where the platform names it, else the element's.
func (aw *appWatch) probe(ctx context.Context, evs []model.Event) *probed {
	p := &probed{}
	seen := map[model.NodeRef]bool{}
	for i := len(evs) - 1; i >= 0 && len(p.reads) < maxProbes; i-- {
		ev := evs[i]
		ref := ev.Ref
		if ev.Child != "" && ev.Type == model.EventChildrenChanged && ev.Detail["op"] == "add" {
			ref = ev.Child
		}
		if ref == "" || seen[ref] || ev.Window == nil || !probeable(ev.Type) {
			continue
		}
		seen[ref] = true
		win, ok := aw.loadingWindow(ev.Window.ID)
		if !ok || ref == win.Ref { // the window itself: its whole read decides
			continue
		}
		walk := observer.Walk(ctx, aw.e.o.Backend(), ref, observer.WalkOptions{Budget: observer.SubtreeBudget()})
		if len(walk.Nodes) == 0 {
			continue
		}
		r := probeRead{win: win, walk: walk, ev: ev, nodes: make([]*model.Node, len(walk.Nodes))}
		for j := range walk.Nodes {
			r.nodes[j] = &walk.Nodes[j].Node
		}
		p.reads = append(p.reads, r)
	}
	return p
}

// probeable reports whether an event of type t may show an element that makes a condition hold.
func probeable(t model.EventType) bool {
	switch t {
	case model.EventElementDestroyed, model.EventWindowClosed, model.EventMenuClosed,
		model.EventAppLaunched, model.EventAppTerminated, model.EventAppActivated, model.EventAnnouncement:
		return false
	}
	return true
}

// loadingWindow is the window of the app with id whose copy is being read whole.
func (aw *appWatch) loadingWindow(id string) (model.Window, bool) {
	for _, win := range aw.windows {
		if win.ID != id {
			continue
		}
		aw.mu.Lock()
		lw := aw.live[win.Ref]
		aw.mu.Unlock()
		return win, lw != nil && aw.loading[lw]
	}
	return model.Window{}, false
}

// checkProbe looks at w on what p read in its windows, and answers it when it holds, listing
// the subtree read. A costly wait (costly.go) is left to its windows' whole read.
func (aw *appWatch) checkProbe(w *wait, p *probed) {
	if w.costly.Load() {
		return
	}
	mt := newMeter(InlineBudget, w)
	for _, r := range p.reads {
		if w.req.Window != "" && !aw.isWindow(r.win, w.req.Window) {
			continue
		}
		v := &view{windows: aw.windows, only: map[model.NodeRef]bool{}, onlyNodes: r.nodes}
		ok, match, _ := w.cond.HoldsWithin(v, mt)
		if mt.Done() {
			w.costly.Store(mt.Over())
			return
		}
		if !ok || match == nil {
			continue
		}
		insp, el, err := aw.e.o.SubtreeSnapshot(aw.app, r.win, r.walk, match.Ref)
		if err != nil {
			continue
		}
		wr := r.win.RefOf()
		delete(aw.unconfirmed, w)
		w.finish(&Result{Outcome: Met, Trigger: &Trigger{Kind: "event", Event: r.ev.Type, Raw: r.ev.Raw}, App: refOf(aw.app),
			Snapshot: api.NewListing(insp), Match: el, Window: &wr})
		return
	}
}
