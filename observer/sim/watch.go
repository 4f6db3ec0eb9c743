package sim

import (
	"sync"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer/ax"
)

// Watch delivers the desktop's notifications, normalised, to sink until stop is called. The
// sinks of every Watch are called on one goroutine, which runs only while someone watches, one
// event at a time, in the order they happened; like a real backend's, a new Watch may also get
// events that were still on their way. stop waits for a sink call in progress and, when it ends
// the last Watch, for that goroutine to end: do not call it from sink.
func (d *Desktop) Watch(sink func(model.Event)) (stop func(), err error) {
	if sink == nil {
		return nil, model.ErrNilSink()
	}
	id, err := d.sinks.Subscribe(sink)
	if err != nil {
		return nil, errClosed() // only Close makes it fail
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if d.sinks.Unsubscribe(id) {
				return // the feed has ended
			}
			d.mu.Lock()
			f := d.feed
			d.mu.Unlock()
			if f != nil {
				f.settle()
			}
		})
	}, nil
}

// feed delivers the events emitted under d.mu from its own goroutine, so that no sink runs
// under the desktop's lock. It is the source of d.sinks: it runs while anyone watches.
type feed struct {
	deliver func(model.Event)
	mu      sync.Mutex
	queue   []model.Event
	wake    chan struct{} // one pending wake-up at most
	quit    chan struct{}
	done    chan struct{}
	busy    sync.Mutex // held while an event is delivered
}

// startFeed starts the feed of the first Watch; its stop ends the goroutine and waits for it.
func (d *Desktop) startFeed(deliver func(model.Event)) (stop func(), err error) {
	f := &feed{deliver: deliver, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil, errClosed()
	}
	d.feed = f
	d.mu.Unlock()
	go f.run()
	return func() {
		d.mu.Lock()
		if d.feed == f {
			d.feed = nil
		}
		d.mu.Unlock()
		close(f.quit)
		<-f.done
	}, nil
}

func (f *feed) push(e model.Event) {
	f.mu.Lock()
	f.queue = append(f.queue, e)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *feed) run() {
	defer close(f.done)
	for {
		select {
		case <-f.quit:
			return
		case <-f.wake:
		}
		for {
			f.mu.Lock()
			batch := f.queue
			f.queue = nil
			f.mu.Unlock()
			if len(batch) == 0 {
				break
			}
			for _, e := range batch {
				select {
				case <-f.quit:
					return
				default:
				}
				f.busy.Lock()
				f.deliver(e)
				f.busy.Unlock()
			}
		}
	}
}

// settle waits for the event being delivered, if any: a sink unsubscribed before it is called
// by no later one.
func (f *feed) settle() {
	f.busy.Lock()
	defer f.busy.Unlock()
}

// emit posts the AX (or NSWorkspace) notification raw about n (nil: the app itself) while anyone
// watches; callers hold d.mu. A secure field's value never gets into the event: Node leaves it
// out and Summary copies only what Node has.
func (d *Desktop) emit(a *app, raw string, n *node, detail map[string]any) {
	if d.feed == nil {
		return
	}
	e := model.Event{Time: d.clock.Now(), App: a.appRef(), Raw: raw, Detail: detail}
	role := model.RoleApplication
	if n == nil {
		e.Instance = a.instance()
	} else {
		node := a.read(n)
		e.Element, e.Ref, role, e.Secure = node.Summary(), node.Ref, node.Role, node.Secure
		if w := n.window(); w != nil {
			e.Window = &model.WindowRef{ID: w.id, Title: w.title}
		}
	}
	typ, ok := ax.NormaliseElementNotification(raw, role)
	if !ok {
		return
	}
	e.Type = typ
	d.feed.push(e)
}
