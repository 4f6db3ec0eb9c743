package sim

import (
	"sync"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/ax"
)

// watcher delivers events to one sink from its own goroutine, in the order they happened.
type watcher struct {
	sink  func(observer.Event)
	mu    sync.Mutex
	queue []observer.Event
	wake  chan struct{} // one pending wake-up at most
	quit  chan struct{}
	done  chan struct{}
	once  sync.Once
}

// Watch delivers the desktop's notifications, normalised, to sink until stop is called. sink
// runs on the watcher's own goroutine, one event at a time, in order. stop waits for a sink call
// in progress and leaves no goroutine behind: do not call it from sink.
func (d *Desktop) Watch(sink func(observer.Event)) (stop func(), err error) {
	w := &watcher{sink: sink, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil, errClosed()
	}
	d.watchers[w] = struct{}{}
	d.mu.Unlock()
	go w.run()
	return func() {
		d.mu.Lock()
		delete(d.watchers, w)
		d.mu.Unlock()
		w.stop()
	}, nil
}

func (w *watcher) push(e observer.Event) {
	w.mu.Lock()
	w.queue = append(w.queue, e)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *watcher) run() {
	defer close(w.done)
	for {
		select {
		case <-w.quit:
			return
		case <-w.wake:
		}
		for {
			w.mu.Lock()
			batch := w.queue
			w.queue = nil
			w.mu.Unlock()
			if len(batch) == 0 {
				break
			}
			for _, e := range batch {
				select {
				case <-w.quit:
					return
				default:
				}
				w.sink(e)
			}
		}
	}
}

func (w *watcher) stop() {
	w.once.Do(func() { close(w.quit) })
	<-w.done
}

// emit posts the AX (or NSWorkspace) notification raw about n (nil: the app itself) to every
// watcher; callers hold d.mu. A secure field's value never gets into the event: Node leaves it
// out and Summary copies only what Node has.
func (d *Desktop) emit(a *app, raw string, n *node, detail map[string]any) {
	if len(d.watchers) == 0 {
		return
	}
	e := observer.Event{Time: d.clock.Now(), App: a.appRef(), Raw: raw, Detail: detail}
	role := observer.RoleApplication
	if n == nil {
		e.Instance = a.instance()
	} else {
		node := a.read(n)
		e.Element, e.Ref, role, e.Secure = node.Summary(), node.Ref, node.Role, node.Secure
		if w := n.window(); w != nil {
			e.Window = &observer.WindowRef{ID: w.id, Title: w.title}
		}
	}
	typ, ok := ax.NormaliseElementNotification(raw, role)
	if !ok {
		return
	}
	e.Type = typ
	for w := range d.watchers {
		w.push(e)
	}
}
