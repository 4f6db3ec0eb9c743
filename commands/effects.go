package commands

import (
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// maxWatched bounds the events an action's effect watch keeps: a storm past it says no more.
const maxWatched = 256

// effectWatch gathers the events of an action's app from just before its chain runs: what it
// caused, told in its reply (api.ActionReply.Effects, Disposition).
type effectWatch struct {
	e      *Engine
	t      *target
	window string // the target's window in its snapshot, "" without one
	start  time.Time
	tok    observer.Token
	poke   chan struct{}

	mu        sync.Mutex
	events    []model.Event
	confirmed bool
	lastAt    time.Time // of the last event that counts
}

// watchEffects starts watching t's app; nil when the observer cannot deliver events.
func (e *Engine) watchEffects(t *target) *effectWatch {
	w := &effectWatch{e: e, t: t, start: time.Now(), poke: make(chan struct{}, 1)}
	if t.snap != nil {
		w.window = t.snap.Window.ID
	}
	tok, err := e.o.Subscribe(w.see)
	if err != nil {
		return nil
	}
	w.tok = tok
	e.settling(t.app.PID, +1)
	return w
}

func (w *effectWatch) see(ev model.Event) {
	if ev.App.PID != w.t.app.PID || ev.Secure || noise(ev) {
		return
	}
	if (w.t.ref == "" || ev.Ref != w.t.ref) && w.e.recent.before(ev, w.start) { // the target's own changes count again
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.events) == maxWatched {
		return
	}
	w.events = append(w.events, ev)
	w.lastAt = time.Now()
	if _, ok := w.summaryLocked(); ok && !w.confirmed {
		w.confirmed = true
	}
	select {
	case w.poke <- struct{}{}:
	default:
	}
}

// settle waits, after the chain delivered the action, until api.EffectQuiet has passed since
// the last event once the action is confirmed, or api.EffectSettle at most.
func (w *effectWatch) settle(ctx context.Context) {
	deadline := time.NewTimer(api.EffectSettle)
	defer deadline.Stop()
	quiet := time.NewTimer(api.EffectSettle)
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		case <-quiet.C:
			return
		case <-w.poke:
			w.mu.Lock()
			confirmed, last := w.confirmed, w.lastAt
			w.mu.Unlock()
			if confirmed {
				quiet.Reset(max(0, api.EffectQuiet-time.Since(last)))
			}
		}
	}
}

// end stops the watch and says what it saw, and the events it was made of; proved says the
// action's chain read its effect back itself.
func (w *effectWatch) end(proved bool) (string, []api.Effect, []model.Event) {
	w.e.o.Unsubscribe(w.tok)
	w.e.settling(w.t.app.PID, -1)
	w.mu.Lock()
	defer w.mu.Unlock()
	effects, confirmed := w.summaryLocked()
	switch {
	case confirmed || proved:
		return api.EffectConfirmed, effects, w.events
	case w.t.node.Secure:
		return api.EffectUnverifiable, effects, w.events
	}
	return api.EffectNoneSeen, effects, w.events
}

// summaryLocked folds the events into effects, leaving out a state that flickered back (a
// button's pressed on and off), and says whether one confirms the action: it is about the
// target, in its window, a window opening or closing, or, for an action without an element
// (a key to an app), anything the app did.
func (w *effectWatch) summaryLocked() ([]api.Effect, bool) {
	flips := map[changeKey]int{}
	for _, ev := range w.events {
		if ev.Type == model.EventStateChanged {
			flips[keyOf(ev)]++
		}
	}
	var out []api.Effect
	index := map[effectKey]int{}
	confirmed := false
	for _, ev := range w.events {
		if ev.Type == model.EventStateChanged && flips[keyOf(ev)]%2 == 0 {
			continue // back where it was
		}
		confirmed = confirmed || w.confirms(ev)
		k := effectKey{ev.Ref, ev.Type}
		if i, ok := index[k]; ok {
			out[i].Count = max(2, out[i].Count+1)
			continue
		}
		if len(out) == api.MaxEffects {
			continue
		}
		fx := api.Effect{Type: ev.Type}
		if ev.Element != nil {
			fx.Role, fx.Name = ev.Element.Role, ev.Element.Name
		}
		if ev.Window != nil {
			fx.Window = ev.Window.Title
		}
		index[k] = len(out)
		out = append(out, fx)
	}
	return out, confirmed
}

func (w *effectWatch) confirms(ev model.Event) bool {
	switch {
	case w.t.ref == "":
		return true
	case ev.Ref != "" && ev.Ref == w.t.ref:
		return true
	case ev.Window != nil && w.window != "" && ev.Window.ID == w.window:
		return true
	}
	switch ev.Type {
	case model.EventWindowCreated, model.EventWindowClosed, model.EventDialogOpened,
		model.EventMenuOpened, model.EventMenuClosed, model.EventAppTerminated:
		return true
	}
	return false
}

type effectKey struct {
	ref model.NodeRef
	typ model.EventType
}

// noise is what any input does on its way and says nothing of its effect: focus moving, the
// app or a window becoming active.
func noise(ev model.Event) bool {
	switch ev.Type {
	case model.EventFocusChanged, model.EventAppActivated, model.EventAppLaunched:
		return true
	case model.EventStateChanged:
		switch ev.Detail["state"] {
		case "focused", "active", "armed":
			return true
		}
	}
	return false
}

// settling counts the actions watching their effects on app pid: an app whose toolkit misses
// events is re-read fast meanwhile (Settling), as while a wait is pending on it.
func (e *Engine) settling(pid, delta int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.settlingN[pid] += delta; e.settlingN[pid] <= 0 {
		delete(e.settlingN, pid)
	}
}

// Settling reports whether an action on app pid is watching for its effects.
func (e *Engine) Settling(pid int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.settlingN[pid] > 0
}
