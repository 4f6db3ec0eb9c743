package ax

import (
	"sync"

	"github.com/ebitengine/purego"
)

// callbackCount is how many C callbacks the package makes. purego.NewCallback's callbacks are
// never freed and a process may make only about 2000, so the set is fixed at start-up: made
// once, in initCallbacks, and routed by an integer token passed as refcon or info, never one
// callback per observer and never a Go pointer. purego_test.go checks this count against the
// call sites.
const callbackCount = 3

// The callbacks, by index.
const (
	cbObserver = 0 // an AXObserverCallback
	cbPerform  = 1 // a CFRunLoopSourceContext perform
	cbEventTap = 2 // a CGEventTapCallBack
)

var callbacks struct {
	once sync.Once
	ptr  [callbackCount]uintptr
}

// initCallbacks makes the C callbacks, once.
func initCallbacks() {
	callbacks.once.Do(func() {
		callbacks.ptr[cbObserver] = purego.NewCallback(onNotification)
		callbacks.ptr[cbPerform] = purego.NewCallback(onPerform)
		callbacks.ptr[cbEventTap] = purego.NewCallback(onEventTap)
	})
}

// routes maps the tokens the callbacks receive to their receivers. Token 0 is never used.
var routes struct {
	mu        sync.Mutex
	next      uintptr
	observers map[uintptr]*appObserver
	loops     map[uintptr]*runLoop
	taps      map[uintptr]*inputTap
}

// newToken returns an unused token; callers hold routes.mu.
func newToken() uintptr {
	routes.next++
	return routes.next
}

func addObserverRoute(o *appObserver) uintptr {
	routes.mu.Lock()
	defer routes.mu.Unlock()
	if routes.observers == nil {
		routes.observers = map[uintptr]*appObserver{}
	}
	t := newToken()
	routes.observers[t] = o
	return t
}

func addLoopRoute(l *runLoop) uintptr {
	routes.mu.Lock()
	defer routes.mu.Unlock()
	if routes.loops == nil {
		routes.loops = map[uintptr]*runLoop{}
	}
	t := newToken()
	routes.loops[t] = l
	return t
}

func addTapRoute(t *inputTap) uintptr {
	routes.mu.Lock()
	defer routes.mu.Unlock()
	if routes.taps == nil {
		routes.taps = map[uintptr]*inputTap{}
	}
	tok := newToken()
	routes.taps[tok] = t
	return tok
}

// dropRoute forgets a token: callbacks that still carry it do nothing.
func dropRoute(token uintptr) {
	routes.mu.Lock()
	defer routes.mu.Unlock()
	delete(routes.observers, token)
	delete(routes.loops, token)
	delete(routes.taps, token)
}

// onNotification is the AXObserverCallback, void (*)(AXObserverRef, AXUIElementRef, CFStringRef,
// void *refcon), refcon being an app observer's token. It runs on the run loop's thread and must
// not block: it queues the notification for the app's worker.
func onNotification(_, elem, notification, refcon uintptr) {
	routes.mu.Lock()
	o := routes.observers[refcon]
	routes.mu.Unlock()
	if o != nil && elem != 0 && notification != 0 {
		o.notify(elem, goString(notification))
	}
}

// onPerform is the run-loop source's perform callback, info being a run loop's token: it runs
// the work queued for the loop.
func onPerform(info uintptr) {
	routes.mu.Lock()
	l := routes.loops[info]
	routes.mu.Unlock()
	if l != nil {
		l.drain()
	}
}

// onEventTap is the CGEventTapCallBack, CGEventRef (*)(CGEventTapProxy, CGEventType, CGEventRef,
// void *userInfo), userInfo being a tap's token. It runs on the tap's run loop thread; a
// listen-only tap's event goes on as it came, whatever it returns, and it returns it.
func onEventTap(_, typ, event, info uintptr) uintptr {
	routes.mu.Lock()
	t := routes.taps[info]
	routes.mu.Unlock()
	if t != nil {
		t.heard(uint32(typ), event)
	}
	return event
}
