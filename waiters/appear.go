package waiters

import (
	"context"
	"time"

	"github.com/axbus/axbus/model"
)

// Apps come and go: an agent launches an app and then waits for its window or acts on its
// button, and a daemon outlives the apps it watches. So a wait (a locator's, an expect) that
// names its app by name while no such app runs waits, within its own timeout, for one to start.
// It listens for the observer's app_launched events before it looks for the app again, so that
// no launch falls between the look and the listening, and looks again at each launch; never on
// a timer. A pid names one process, which cannot start later: it is found at once or not at all.

// appearing is what a wait for an app that does not run yet knows of it.
type appearing struct {
	// missing is the last look's APP_NOT_FOUND, with the apps that ran then.
	missing *model.Error
}

// mayAppear reports whether w may wait for its app to start: it names the app by name, and
// nothing that only a running instance has (a snapshot's elements, a scope, a window to see go).
func (w *wait) mayAppear() bool {
	return w.req.App.PID <= 0 && w.req.App.Name != "" && w.req.Snapshot == "" && w.req.Scope == nil &&
		len(w.targets) == 0 && !w.cond.NeedsItsWindow()
}

// awaitApp waits for the app of a wait that began before the app ran, and arms the wait as soon
// as it listens for launches. It returns nil once the app runs (w.app is set), or the wait's
// result when the wait ends first: at its timeout (no such app appeared), with two apps that
// match (APP_AMBIGUOUS, as FindApp says of running apps), or when ctx or the engine ends.
func (e *Engine) awaitApp(ctx context.Context, w *wait, arm func(), timeout <-chan time.Time) *Result {
	launched, stop := e.listenLaunches()
	defer stop()
	for {
		app, err := e.o.FindApp(ctx, w.req.App) // the first look covers a launch since prepare's
		switch {
		case err == nil:
			w.app, w.appear = app, nil
			return nil
		case model.CodeOf(err) == model.CodeAppNotFound:
			w.appear.missing = model.AsError(err)
		default:
			w.finish(&Result{Outcome: Failed, Error: model.AsError(err)})
			return <-w.done
		}
		arm() // it listens for the launch: a client may start the app now
		select {
		case <-launched:
		case <-timeout:
			w.finish(&Result{Outcome: Timeout, Error: w.notAppeared()})
			return <-w.done
		case <-ctx.Done():
			w.finish(e.interrupted(ctx))
			return <-w.done
		case <-e.ctx.Done():
			w.finish(e.interrupted(ctx))
			return <-w.done
		}
	}
}

// notAppeared is the error of a wait whose app did not start in time: APP_NOT_FOUND, as a
// one-shot request on that name is at once, said of the time waited.
func (w *wait) notAppeared() *model.Error {
	err := model.Errorf(model.CodeAppNotFound,
		"Start the app first (axbus launch ENTRY), check its name against axbus apps, or wait longer (--timeout).",
		"no app matching %q appeared within %v", w.req.App.Name, w.req.Timeout).With("app", w.req.App.Name)
	if running, ok := w.appear.missing.Details["running"]; ok {
		err.With("running", running)
	}
	return err
}

// Awaiting is how many waits are waiting for their app to start now: what a test checks before
// it starts the app, to know the waits began first.
func (e *Engine) Awaiting() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.launches)
}

// listenLaunches returns a channel poked at every app launch, until stop. One poke stands for
// any number of launches: the waiter looks at the whole app list again.
func (e *Engine) listenLaunches() (<-chan struct{}, func()) {
	poke := make(chan struct{}, 1)
	e.mu.Lock()
	e.launches[poke] = true
	e.mu.Unlock()
	return poke, func() {
		e.mu.Lock()
		delete(e.launches, poke)
		e.mu.Unlock()
	}
}

// pokeAll pokes each channel without blocking; e.mu is held.
func pokeAll(chans map[chan struct{}]bool) {
	for c := range chans {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}
