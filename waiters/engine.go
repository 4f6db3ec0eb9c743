package waiters

import (
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// Defaults and bounds of a wait.
const (
	DefaultTimeout = api.DefaultWaitTimeout
	MaxTimeout     = api.MaxWaitTimeout
	DefaultRecheck = time.Second
	MinRecheck     = 100 * time.Millisecond
	// MaxRecheck is how far apart the default recheck spaces an app's whole re-reads while they
	// keep finding nothing its notifications had not announced.
	MaxRecheck = 4 * time.Second
)

// Engine resolves waits by subscription. It subscribes to the observer's events once; each app
// that waits are about gets one watcher, shared by all its waits: one copy of its windows kept
// up to date by events (live.Window, read whole in the background: load.go), one re-read
// per event for all of them, and a slow re-read for what no notification announced. A watcher
// stops Linger after its app's last wait ended.
type Engine struct {
	o *observer.Observer

	mu      sync.Mutex
	apps    map[int]*appWatch // by pid
	desktop map[*wait]bool    // waits with no app: every watcher evaluates them
	token   observer.Token
	started bool
	linger  time.Duration
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	// launches are poked at every app_launched (e.mu): waits on an app that does not run yet.
	launches map[chan struct{}]bool
	// costly evaluates the waits too costly for their watchers (costly.go).
	costly *costlyPool
}

// New returns an engine over o. Start it before waiting.
func New(o *observer.Observer) *Engine {
	ctx, cancel := context.WithCancel(context.Background())
	return &Engine{o: o, apps: map[int]*appWatch{}, desktop: map[*wait]bool{}, launches: map[chan struct{}]bool{},
		costly: newCostlyPool(), ctx: ctx, cancel: cancel, linger: Linger}
}

// Start subscribes to the observer's events.
func (e *Engine) Start() error {
	tok, err := e.o.Subscribe(e.route)
	if err != nil {
		return err
	}
	e.mu.Lock()
	e.token, e.started = tok, true
	e.mu.Unlock()
	return nil
}

// Stop ends every wait (with an error outcome) and the watchers.
func (e *Engine) Stop() {
	e.mu.Lock()
	started := e.started
	e.started = false
	e.mu.Unlock()
	if started {
		e.o.Unsubscribe(e.token)
	}
	e.cancel()
	e.wg.Wait()
}

// route hands an event to its app's watcher; an event of an app nobody waits on starts a
// watcher only when a desktop-wide wait may be about it. It never blocks.
func (e *Engine) route(ev model.Event) {
	if ev.App.PID <= 0 {
		return
	}
	e.mu.Lock()
	if ev.Type == model.EventAppLaunched {
		pokeAll(e.launches)
	}
	aw := e.apps[ev.App.PID]
	if aw == nil && len(e.desktop) > 0 && e.started {
		aw = e.watchLocked(ev.App.PID)
	}
	e.mu.Unlock()
	if aw != nil {
		aw.push(ev)
	}
}

// Watching reports whether the engine watches app pid: a wait on it, or one that ended less than
// the linger period ago (its copy is kept warm). A desktop-wide wait watches every app.
func (e *Engine) Watching(pid int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.apps[pid] != nil
}

// Pending reports whether a wait (an expect among them) on app pid is under way now: one on
// the app, or a desktop-wide one. A lingering watcher is not.
func (e *Engine) Pending(pid int) bool {
	e.mu.Lock()
	aw, desktop := e.apps[pid], len(e.desktop) > 0
	e.mu.Unlock()
	if desktop {
		return true
	}
	if aw == nil {
		return false
	}
	aw.mu.Lock()
	defer aw.mu.Unlock()
	return len(aw.waits) > 0
}

// watchLocked returns the watcher of pid, starting it; e.mu is held.
func (e *Engine) watchLocked(pid int) *appWatch {
	if aw := e.apps[pid]; aw != nil {
		return aw
	}
	aw := newAppWatch(e, pid)
	for w := range e.desktop { // a new watcher evaluates the desktop-wide waits too
		aw.add(w)
	}
	e.apps[pid] = aw
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		aw.run(e.ctx)
	}()
	return aw
}

// watchDesktopLocked starts watchers for the running apps, so that a desktop-wide wait is
// evaluated at once against what the desktop shows now. The apps are listed off the lock.
func (e *Engine) watchDesktopLocked() {
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		apps, err := e.o.Apps(e.ctx)
		if err != nil {
			return
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if len(e.desktop) == 0 || !e.started {
			return
		}
		for _, a := range apps {
			e.watchLocked(a.PID)
		}
	}()
}

// Linger is how long a watcher outlives its last wait: agents wait on one app again and again,
// and the next wait then finds the app's copy warm instead of reading its windows whole again.
const Linger = 30 * time.Second

// release drops a watcher that has had no wait for the linger period.
func (e *Engine) release(aw *appWatch) {
	time.AfterFunc(e.linger, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.apps[aw.pid] == aw && aw.idleFor() >= e.linger && len(e.desktop) == 0 {
			delete(e.apps, aw.pid)
			aw.stop()
		}
	})
}
