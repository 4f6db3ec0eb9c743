package commands

import (
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// An action's effects leave out what was changing before it: a clock, a ticking page, a
// progress bar. recentChanges remembers, per app, what changed in the last recentFor.
const (
	recentFor = 3 * time.Second
	// maxRecent bounds the changes remembered of one app; the oldest go first.
	maxRecent = 256
)

type changeKey struct {
	ref   model.NodeRef
	typ   model.EventType
	state string // a state_changed's state
}

func keyOf(ev model.Event) changeKey {
	state, _ := ev.Detail["state"].(string)
	return changeKey{ev.Ref, ev.Type, state}
}

type recentChanges struct {
	mu   sync.Mutex
	apps map[int]map[changeKey]lastTwo
}

// lastTwo are the last two times a change was seen: an action's watch may hear of a change
// after this did, which is then the last.
type lastTwo struct{ last, prev time.Time }

// start follows o's events for the engine's lifetime, which is the daemon's (without events
// there is nothing to leave out).
func (r *recentChanges) start(o *observer.Observer) {
	r.apps = map[int]map[changeKey]lastTwo{}
	_, _ = o.Subscribe(r.note)
}

func (r *recentChanges) note(ev model.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Type == model.EventAppTerminated {
		delete(r.apps, ev.App.PID)
		return
	}
	if ev.Ref == "" || ev.App.PID == 0 {
		return
	}
	m := r.apps[ev.App.PID]
	if m == nil {
		m = map[changeKey]lastTwo{}
		r.apps[ev.App.PID] = m
	}
	now := time.Now()
	if len(m) >= maxRecent {
		for k, at := range m {
			if now.Sub(at.last) > recentFor {
				delete(m, k)
			}
		}
		if len(m) >= maxRecent {
			return // a storm of distinct changes: the newest are not remembered
		}
	}
	k := keyOf(ev)
	m[k] = lastTwo{last: now, prev: m[k].last}
}

// before says whether ev's element changed so within recentFor before t: not the action's doing.
func (r *recentChanges) before(ev model.Event, t time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	at := r.apps[ev.App.PID][keyOf(ev)]
	within := func(x time.Time) bool { return !x.IsZero() && x.Before(t) && t.Sub(x) <= recentFor }
	return within(at.last) || within(at.prev)
}
