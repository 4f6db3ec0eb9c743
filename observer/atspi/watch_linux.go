//go:build linux

package atspi

import (
	"context"
	"sync"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/observer"
)

// Watch delivers normalised events to sink until stop is called. The first watch registers the
// AT-SPI events with the registry (GTK3 emits nothing until someone does) and, for toolkits that
// miss events (GTK4), starts re-reading them every recheck period; the last stop undoes both.
// sink must not block.
func (b *Backend) Watch(sink func(model.Event)) (stop func(), err error) {
	if sink == nil {
		return nil, model.ErrNilSink()
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
	// Under b.mu, as Watch adds: a Watch between the last removal and the watch's end would
	// join a watch about to stop, and hear nothing.
	b.mu.Lock()
	last := w.sinks.Remove(id)
	mine := last && b.watch == w
	if mine {
		b.watch = nil
	}
	b.mu.Unlock()
	if !mine {
		return // others still listen, or Close stopped it
	}
	w.stop()
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.callTimeout)
	defer cancel()
	b.deregisterEvents(ctx, registeredEvents)
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
	// gone are the buses whose worker ended while their connection was still on the bus (the
	// app left the registry first): an event of theirs must not start another worker. left are
	// the buses whose connection has left while their worker runs. A bus is in either only until
	// both have happened: after that it sends nothing more (unique names are never reused).
	gone    map[string]bool
	left    map[string]bool
	stopped bool
	dropped uint64
	wg      sync.WaitGroup
}

func newWatchState(b *Backend) *watchState {
	ctx, cancel := context.WithCancel(context.Background())
	return &watchState{b: b, ctx: ctx, cancel: cancel, started: make(chan struct{}),
		workers: map[string]*appWorker{}, gone: map[string]bool{}, left: map[string]bool{}}
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
		calls = append(calls, b.conn.Object(a.bus, rootPath).GoWithContext(ctx, accessibleGetRole, 0, nil))
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
		wk = &appWorker{w: w, bus: bus, notify: make(chan struct{}, 1), windows: map[model.NodeRef]winMark{},
			seen: map[model.NodeRef]seenFlags{}, announced: map[model.NodeRef]announced{}}
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
// more is done for it. Once its connection has left the bus as well, nothing is kept of it.
func (w *watchState) ended(wk *appWorker) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.workers[wk.bus] == wk {
		delete(w.workers, wk.bus)
	}
	if w.left[wk.bus] {
		delete(w.left, wk.bus)
		return
	}
	if len(w.gone) > 10000 {
		w.gone = map[string]bool{}
	}
	w.gone[wk.bus] = true
}

// leftBus records that bus's connection has left the accessibility bus: no signal of it can
// follow, so what was kept to refuse its late events goes once its worker has ended too.
func (w *watchState) leftBus(bus string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.gone[bus]:
		delete(w.gone, bus)
	case w.workers[bus] != nil:
		w.left[bus] = true
	}
}

// deliver hands an event to every sink.
func (w *watchState) deliver(ev model.Event) { w.sinks.Deliver(ev) }
