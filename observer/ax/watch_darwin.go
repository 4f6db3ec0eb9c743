package ax

import (
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"
)

const (
	// pollApps is how often a watch looks for apps that started or ended. Polling sees the apps
	// that post no NSWorkspace notification (background and accessory apps) too.
	pollApps = time.Second
	// startWait bounds how long Watch waits for the observers of the running apps to register.
	startWait = 3 * time.Second
)

// The raw names of the app events found by polling: the NSWorkspace notifications they stand for.
const (
	rawLaunched   = "poll:NSWorkspaceDidLaunchApplicationNotification"
	rawTerminated = "poll:NSWorkspaceDidTerminateApplicationNotification"
)

// Watch delivers normalised events to sink until stop is called. The first watch starts a run
// loop and one AXObserver per app, registered on the application element for Notifications;
// apps that start later get theirs when the poller finds them, and app launch and exit are
// reported as events. The last stop unregisters and ends it all. sink must not block.
func (b *Backend) Watch(sink func(model.Event)) (stop func(), err error) {
	if sink == nil {
		return nil, model.ErrNilSink()
	}
	if err := b.checkOpen(); err != nil {
		return nil, err
	}
	id, err := b.sinks.Subscribe(sink)
	if err != nil {
		if closed := b.checkOpen(); closed != nil {
			return nil, closed
		}
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(func() { b.sinks.Unsubscribe(id) }) }, nil
}

// startWatch is the source of b.sinks: the first Watch starts a watch, whose stop the last one
// calls.
func (b *Backend) startWatch(deliver func(model.Event)) (stop func(), err error) {
	w := newWatchState(b, deliver)
	w.start()
	return w.stop, nil
}

// watchState is one watch: its run loop, the app observers and the poller.
type watchState struct {
	b       *Backend
	ctx     context.Context
	cancel  context.CancelFunc
	deliver func(model.Event) // hands an event to every sink
	loop    *runLoop
	wg      sync.WaitGroup // the poller and the app workers: all that delivers

	mu   sync.Mutex
	apps map[int]*appObserver // by pid
}

func newWatchState(b *Backend, deliver func(model.Event)) *watchState {
	ctx, cancel := context.WithCancel(context.Background())
	return &watchState{b: b, ctx: ctx, cancel: cancel, deliver: deliver, apps: map[int]*appObserver{}}
}

// start runs the loop, observes the running apps (waiting a while for their registrations, so
// that little is missed once Watch returns) and starts the poller.
func (w *watchState) start() {
	w.loop = startRunLoop()
	apps, err := w.b.Apps(w.ctx)
	if err != nil {
		w.b.log.Warn("ax: cannot list the apps to watch", "err", err)
	}
	known := map[int]model.App{}
	var registered []<-chan struct{}
	for _, a := range apps {
		known[a.PID] = a
		registered = append(registered, w.observe(a))
	}
	timeout := time.NewTimer(startWait)
	defer timeout.Stop()
wait:
	for _, r := range registered {
		select {
		case <-r:
		case <-timeout.C:
			break wait // a busy app registers later, by itself
		}
	}
	w.wg.Add(1)
	go w.poll(known)
}

// stop ends the poller and the app workers (which unregister from the apps still running), then
// the run loop. Nothing is delivered once it returns: only they deliver.
func (w *watchState) stop() {
	w.cancel()
	w.wg.Wait()
	w.loop.stop()
}

// observe starts app's observer and returns a channel closed once it has tried to register.
func (w *watchState) observe(app model.App) <-chan struct{} {
	o := newAppObserver(w, app)
	w.mu.Lock()
	w.apps[app.PID] = o
	w.mu.Unlock()
	w.wg.Add(1)
	go o.run()
	return o.registered
}

// unobserve ends the observer of app pid, which exited.
func (w *watchState) unobserve(pid int) {
	w.mu.Lock()
	o := w.apps[pid]
	delete(w.apps, pid)
	w.mu.Unlock()
	if o != nil {
		o.end()
	}
}

// poll compares the apps with the last list every pollApps and reports the changes.
func (w *watchState) poll(known map[int]model.App) {
	defer w.wg.Done()
	t := time.NewTicker(pollApps)
	defer t.Stop()
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-t.C:
		}
		apps, err := w.b.Apps(w.ctx)
		if err != nil {
			continue
		}
		now := make(map[int]model.App, len(apps))
		for _, a := range apps {
			now[a.PID] = a
			if old, ok := known[a.PID]; ok && old.Instance == a.Instance {
				continue
			} else if ok {
				w.terminated(old) // the pid was reused
			}
			w.deliver(model.Event{Time: time.Now(), App: a.Ref(), Type: model.EventAppLaunched, Raw: rawLaunched,
				Instance: a.Instance})
			w.observe(a)
		}
		for pid, a := range known {
			if _, ok := now[pid]; !ok {
				w.terminated(a)
			}
		}
		known = now
	}
}

func (w *watchState) terminated(a model.App) {
	w.unobserve(a.PID)
	w.deliver(model.Event{Time: time.Now(), App: a.Ref(), Type: model.EventAppTerminated, Raw: rawTerminated})
}
