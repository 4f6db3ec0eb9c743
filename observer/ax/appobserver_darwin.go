package ax

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"
)

const (
	// eventQueue bounds the notifications queued for one app; more are dropped, and counted,
	// rather than block the run loop.
	eventQueue = 1024
	// registerRetry is how long an app that could not register (busy, or still launching) waits
	// before the next try.
	registerRetry = 2 * time.Second
)

// notification is one AX notification as the callback queued it; elem is retained.
type notification struct {
	elem uintptr
	name string
	at   time.Time
}

// appObserver is the AXObserver of one app and the worker that turns its notifications into
// events. Each app has its own worker, so a frozen app delays only its own events.
type appObserver struct {
	w          *watchState
	app        model.App
	token      uintptr
	ctx        context.Context
	cancel     context.CancelFunc
	events     chan notification
	registered chan struct{} // closed after the first registration attempt
	gone       atomic.Bool   // the app exited: nothing to unregister
	dropped    atomic.Uint64

	// The worker's own: the windows met, by handle.
	windows map[model.NodeRef]model.WindowRef
}

func newAppObserver(w *watchState, app model.App) *appObserver {
	ctx, cancel := context.WithCancel(w.ctx)
	o := &appObserver{w: w, app: app, ctx: ctx, cancel: cancel, events: make(chan notification, eventQueue),
		registered: make(chan struct{}), windows: map[model.NodeRef]model.WindowRef{}}
	o.token = addObserverRoute(o)
	return o
}

// notify queues a notification without blocking; it runs on the run loop's thread.
func (o *appObserver) notify(elem uintptr, name string) {
	n := notification{elem: cfRetain(elem), name: name, at: time.Now()} // the callback only borrows elem
	select {
	case o.events <- n:
	default:
		release(n.elem)
		o.dropped.Add(1)
	}
}

// end stops the worker of an app that exited.
func (o *appObserver) end() {
	o.gone.Store(true)
	o.cancel()
}

// run creates the observer, registers it, and handles notifications until the app exits or the
// watch stops.
func (o *appObserver) run() {
	defer o.w.wg.Done()
	var once sync.Once
	registered := func() { once.Do(func() { close(o.registered) }) }
	defer registered()
	defer dropRoute(o.token)
	b := o.w.b
	pid := o.app.PID
	app, err := b.appRef(pid)
	if err != nil {
		return
	}
	appAX, _, err := b.refs.acquire(app)
	if err != nil {
		return
	}
	defer release(appAX)
	var obs uintptr
	if code := axObserverCreate(int32(pid), callbacks.ptr[cbObserver], &obs); code != AXSuccess {
		b.log.Warn("ax: cannot observe app", "pid", pid, "err", code)
		return
	}
	defer release(obs)
	src := axObserverGetRunLoopSource(obs)
	loop := o.w.loop
	loop.do(func() { cfRunLoopAddSource(loop.rl, src, kCFRunLoopDefaultMode) })
	defer o.discard()
	// Removed on the loop's thread, so no callback of this observer runs after it (nor queues
	// anything that discard would miss).
	defer loop.do(func() { cfRunLoopRemoveSource(loop.rl, src, kCFRunLoopDefaultMode) })
	for !o.register(obs, appAX) {
		registered()
		select {
		case <-o.ctx.Done():
			return
		case <-time.After(registerRetry):
		}
	}
	registered()
	defer o.unregister(obs, appAX)
	for {
		select {
		case n := <-o.events:
			o.handle(n)
		case <-o.ctx.Done():
			return
		}
	}
}

// register adds the notifications; false when the app did not answer any (busy or launching),
// to try again. Notifications the app does not support are skipped.
func (o *appObserver) register(obs, appAX uintptr) bool {
	ok, busy := 0, 0
	for _, n := range Notifications {
		switch code := axObserverAddNotification(obs, appAX, name(n), o.token); code {
		case AXSuccess, AXNotificationAlreadyRegistered:
			ok++
		case AXCannotComplete:
			busy++
			if ok == 0 {
				return false // the first did not get through: the rest would wait as long
			}
		}
		if o.ctx.Err() != nil {
			return true
		}
	}
	return ok > 0 || busy == 0
}

// unregister removes the notifications from an app that still runs; a busy app is left alone
// (releasing the observer ends its registrations anyway).
func (o *appObserver) unregister(obs, appAX uintptr) {
	if o.gone.Load() {
		return
	}
	for _, n := range Notifications {
		if axObserverRemoveNotification(obs, appAX, name(n)) == AXCannotComplete {
			return
		}
	}
}

// discard releases the notifications left in the queue.
func (o *appObserver) discard() {
	for {
		select {
		case n := <-o.events:
			release(n.elem)
		default:
			if d := o.dropped.Load(); d > 0 {
				o.w.b.log.Debug("ax: notifications dropped", "pid", o.app.PID, "dropped", d)
			}
			return
		}
	}
}

// handle turns a notification into an event: it reads the element (its summary and role, which
// refine the event type) and names the window that holds it.
func (o *appObserver) handle(n notification) {
	defer release(n.elem)
	if _, ok := NormaliseNotification(n.name); !ok {
		return
	}
	b := o.w.b
	ev := model.Event{Time: n.at, App: o.app.Ref(), Raw: n.name}
	if destroysElement(n.name) {
		ev.Ref = b.refs.lookup(n.elem) // "" for an element never handed out
		o.w.deliver(o.destroyed(ev))
		return
	}
	ref := b.refs.intern(n.elem)
	ev.Ref = ref
	node := b.readNode(o.ctx, ref)
	if node.Err == nil {
		ev.Element, ev.Secure = node.Summary(), node.Secure
	}
	ev.Type, _ = NormaliseElementNotification(n.name, node.Role)
	ev.Window = o.windowOf(ref, node)
	o.w.deliver(ev)
}

// destroyed completes the event of an element destroyed and forgets its handle. The element is
// gone: only what was known of it says what it was; of one without a handle nothing is.
func (o *appObserver) destroyed(ev model.Event) model.Event {
	b := o.w.b
	info, _ := b.refs.info(ev.Ref) // nothing known of "", and nothing to forget
	role := NormaliseRole(info.role, info.subrole)
	ev.Type, _ = NormaliseElementNotification(ev.Raw, role)
	if info.roleRead {
		ev.Element = &model.ElementSummary{Role: role, PlatformRole: info.role}
	}
	if win, ok := o.windows[ev.Ref]; ok {
		ev.Window = &win
		delete(o.windows, ev.Ref)
	} else if role.IsWindowLike() {
		ev.Window = &model.WindowRef{ID: windowID(ev.Ref)} // listed by Windows, never in an event: no title known
	}
	b.refs.forget(ev.Ref)
	return ev
}

// windowOf names the window that holds ref: ref itself when it is a window, else its AXWindow.
func (o *appObserver) windowOf(ref model.NodeRef, node model.Node) *model.WindowRef {
	if node.Err != nil {
		if w, ok := o.windows[ref]; ok {
			return &w
		}
		return nil
	}
	if node.Role == model.RoleApplication {
		return nil
	}
	if node.Role.IsWindowLike() {
		w := model.WindowRef{ID: windowID(ref), Title: node.Name}
		o.windows[ref] = w
		return &w
	}
	win, err := o.w.b.elementAttr(ref, "AXWindow")
	if err != nil || win == "" {
		return nil
	}
	if w, ok := o.windows[win]; ok {
		return &w
	}
	full, _, ok := o.w.b.window(win, false)
	if !ok {
		return nil
	}
	w := full.RefOf()
	o.windows[win] = w
	return &w
}
