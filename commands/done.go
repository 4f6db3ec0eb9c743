package commands

import (
	"context"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// Done is an action that was done, as a recording takes it (flows): who asked, what, how it
// went, and where its target was (its snapshot and index there, for a locator made from it).
type Done struct {
	Agent   api.Identity
	Action  string
	Request api.ActionRequest
	Reply   *api.ActionReply
	// Snapshot is the target's (nil for keys sent to an app); Index its place in the walk.
	Snapshot *observer.Snapshot
	Index    int
	// Secure says the target is a password field: its value is never recorded.
	Secure bool
	// Events are those its effects were made of (names, titles: what an expect is made from).
	Events []model.Event
	// Before is what the listener's Before gave just before the action was sent.
	Before any
}

// Listener hears of every action done: Before (optional) runs, on the action's own goroutine,
// just before its chain, with its target's snapshot, and what it gives comes back in Done.Before;
// Done runs once the action is done. Neither may block for long: the action waits on them.
type Listener struct {
	Before func(ctx context.Context, snap *observer.Snapshot) any
	Done   func(Done)
}

// OnDone adds l until the returned stop is called.
func (e *Engine) OnDone(l Listener) (stop func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.doneID++
	id := e.doneID
	e.onDone[id] = l
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		delete(e.onDone, id)
	}
}

// listeners are the listeners now, by id.
func (e *Engine) listeners() map[int]Listener {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.onDone) == 0 {
		return nil
	}
	out := make(map[int]Listener, len(e.onDone))
	for id, l := range e.onDone {
		out[id] = l
	}
	return out
}

// before runs the listeners' Before for an action about to be sent.
func (e *Engine) before(ctx context.Context, t *target) (map[int]Listener, map[int]any) {
	ls := e.listeners()
	if ls == nil {
		return nil, nil
	}
	got := map[int]any{}
	for id, l := range ls {
		if l.Before != nil && t.snap != nil {
			got[id] = l.Before(ctx, t.snap)
		}
	}
	return ls, got
}

// announce tells the listeners of an action done.
func (e *Engine) announce(ctx context.Context, ls map[int]Listener, before map[int]any, action string, req api.ActionRequest,
	reply *api.ActionReply, t *target, events []model.Event) {
	if len(ls) == 0 {
		return
	}
	d := Done{Agent: api.IdentityOf(ctx), Action: action, Request: req, Reply: reply, Snapshot: t.snap, Secure: t.node.Secure, Events: events}
	if t.was != nil {
		d.Index = t.was.Index
	}
	for id, l := range ls {
		d.Before = before[id]
		l.Done(d)
	}
}
