package ax

import (
	"runtime"
	"sync"
)

// sourceContext is a CFRunLoopSourceContext of version 0; CF copies it when the source is made.
type sourceContext struct {
	_       int64 // version: 0
	info    uintptr
	_       [7]uintptr // retain, release, copyDescription, equal, hash, schedule, cancel: none
	perform uintptr
}

// runLoop is a CFRunLoop on a goroutine of its own, locked to its OS thread and parked in
// CFRunLoopRun. The AXObservers' sources are added to it, so their callbacks run on its thread.
// Other goroutines hand it work through a queue that the perform callback of a source of its
// own drains, signalled and woken up after each post.
type runLoop struct {
	token   uintptr
	rl, src uintptr
	done    chan struct{}

	mu      sync.Mutex
	queue   []func()
	stopped bool // the source is released: nothing may signal it
}

// startRunLoop starts a run loop and returns once it runs.
func startRunLoop() *runLoop {
	initCallbacks()
	l := &runLoop{done: make(chan struct{})}
	l.token = addLoopRoute(l)
	ready := make(chan struct{})
	go l.run(ready)
	<-ready
	return l
}

func (l *runLoop) run(ready chan<- struct{}) {
	// Never unlocked: when the goroutine ends, its thread ends with it, and the thread's CFRunLoop.
	runtime.LockOSThread()
	ctx := sourceContext{info: l.token, perform: callbacks.ptr[cbPerform]}
	l.rl = cfRunLoopGetCurrent()
	l.src = cfRunLoopSourceCreate(0, 0, &ctx)
	cfRunLoopAddSource(l.rl, l.src, kCFRunLoopDefaultMode)
	close(ready)
	cfRunLoopRun() // until stop; our own source keeps it from returning for want of sources
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
	cfRunLoopRemoveSource(l.rl, l.src, kCFRunLoopDefaultMode)
	release(l.src)
	dropRoute(l.token)
	close(l.done)
}

// post queues fn to run on the loop's thread; after the loop stopped, fn never runs.
func (l *runLoop) post(fn func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return
	}
	l.queue = append(l.queue, fn)
	cfRunLoopSourceSignal(l.src)
	cfRunLoopWakeUp(l.rl)
}

// do runs fn on the loop's thread and waits for it; it does not run once the loop has stopped.
func (l *runLoop) do(fn func()) {
	finished := make(chan struct{})
	l.post(func() {
		defer close(finished)
		fn()
	})
	select {
	case <-finished:
	case <-l.done:
	}
}

// drain runs the queued work; it runs on the loop's thread.
func (l *runLoop) drain() {
	l.mu.Lock()
	q := l.queue
	l.queue = nil
	l.mu.Unlock()
	for _, fn := range q {
		fn()
	}
}

// stop ends the loop and waits until its goroutine is done.
func (l *runLoop) stop() {
	l.post(func() { cfRunLoopStop(l.rl) })
	<-l.done
}
