package observer

import (
	"sync"
)

// Token identifies one subscription to the hub.
type Token uint64

// hub fans the backend's events out to subscribers. It watches the backend only while someone
// listens: the first subscriber starts the watch and the last one to leave stops it.
type hub struct {
	mu    sync.Mutex
	next  Token
	subs  map[Token]func(Event)
	list  []func(Event) // copy-on-write view of subs for delivery without the lock
	watch func(sink func(Event)) (func(), error)
	stop  func()
}

func newHub(watch func(sink func(Event)) (func(), error)) *hub {
	return &hub{subs: map[Token]func(Event){}, watch: watch}
}

func (h *hub) subscribe(fn func(Event)) (Token, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) == 0 && h.stop == nil {
		stop, err := h.watch(h.deliver)
		if err != nil {
			return 0, err
		}
		h.stop = stop
	}
	h.next++
	h.subs[h.next] = fn
	h.refresh()
	return h.next, nil
}

func (h *hub) unsubscribe(t Token) {
	h.mu.Lock()
	if _, ok := h.subs[t]; !ok {
		h.mu.Unlock()
		return
	}
	delete(h.subs, t)
	h.refresh()
	var stop func()
	if len(h.subs) == 0 {
		stop, h.stop = h.stop, nil
	}
	h.mu.Unlock()
	if stop != nil {
		stop() // outside the lock: the backend may be waiting in deliver for it
	}
}

func (h *hub) refresh() {
	h.list = make([]func(Event), 0, len(h.subs))
	for _, fn := range h.subs {
		h.list = append(h.list, fn)
	}
}

// deliver hands e to every subscriber. Subscribers must not block.
func (h *hub) deliver(e Event) {
	h.mu.Lock()
	list := h.list
	h.mu.Unlock()
	for _, fn := range list {
		fn(e)
	}
}
