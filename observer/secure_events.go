package observer

import (
	"sync"
	"time"

	"github.com/axbus/axbus/model"
)

// secureQuiet is how long a secure field must be still before the one text_changed of its burst
// of changes goes out.
const secureQuiet = 750 * time.Millisecond

// rawSecureCoalesced is the raw name of the text_changed that stands for a burst of changes to a
// secure field: the platform's own names would tell an insertion from a deletion.
const rawSecureCoalesced = "secure:coalesced"

// secureGate stands between the backend and the subscribers, so that no event tells anything of a
// secure field's text: not its length, not where the caret or a change is, not when each key was
// typed. Events about a secure field lose their detail; its text, value and selection changes are
// held and coalesced into one text_changed that goes out once the field has been still for
// secureQuiet, or at once when the focus moves elsewhere in the app or the field goes.
type secureGate struct {
	sink func(model.Event)
	now  func() time.Time

	mu     sync.Mutex
	held   map[model.NodeRef]*heldChange
	closed bool
}

// heldChange is a secure field's burst of changes, waiting for the field to be still.
type heldChange struct {
	ev    model.Event // the text_changed that will go out
	timer *time.Timer
}

func newSecureGate(sink func(model.Event), now func() time.Time) *secureGate {
	return &secureGate{sink: sink, now: now, held: map[model.NodeRef]*heldChange{}}
}

// deliver passes e on, or holds it when it is a change to a secure field.
func (g *secureGate) deliver(e model.Event) {
	if !e.Secure {
		if e.Type == model.EventFocusChanged {
			g.flushApp(e.App.PID, e.Ref) // the focus left the field: its change goes out before the move
		}
		g.sink(e)
		return
	}
	e.Detail = nil
	if e.Element != nil {
		el := *e.Element
		el.Value = ""
		e.Element = &el
	}
	switch e.Type {
	case model.EventTextChanged, model.EventValueChanged, model.EventSelectionChanged:
		g.hold(e)
	case model.EventElementDestroyed:
		g.flush(e.Ref)
		g.sink(e)
	default:
		g.sink(e)
	}
}

// hold starts or extends the burst of e's field.
func (g *secureGate) hold(e model.Event) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || e.Ref == "" {
		return // a change nobody can place is dropped: nothing of it is worth its timing
	}
	if h := g.held[e.Ref]; h != nil {
		h.timer.Reset(secureQuiet)
		return
	}
	e.Type, e.Raw = model.EventTextChanged, rawSecureCoalesced
	ref := e.Ref
	g.held[ref] = &heldChange{ev: e, timer: time.AfterFunc(secureQuiet, func() { g.flush(ref) })}
}

// flush sends ref's held change, if any, now.
func (g *secureGate) flush(ref model.NodeRef) {
	g.mu.Lock()
	h := g.held[ref]
	delete(g.held, ref)
	closed := g.closed
	g.mu.Unlock()
	if h == nil || closed {
		return
	}
	h.timer.Stop()
	h.ev.Time = g.now() // the end of the burst, not its first keystroke
	g.sink(h.ev)
}

// flushApp sends the held changes of app pid's fields other than except.
func (g *secureGate) flushApp(pid int, except model.NodeRef) {
	g.mu.Lock()
	var refs []model.NodeRef
	for ref, h := range g.held {
		if h.ev.App.PID == pid && ref != except {
			refs = append(refs, ref)
		}
	}
	g.mu.Unlock()
	for _, ref := range refs {
		g.flush(ref)
	}
}

// close drops what is held: the watch is over.
func (g *secureGate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for ref, h := range g.held {
		h.timer.Stop()
		delete(g.held, ref)
	}
}
