//go:build linux

package atspi

import (
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// maxQueuedSignals bounds the signals waiting for the dispatcher; beyond it the oldest are dropped
// (and counted), so a flood can never grow memory without bound nor block the connection.
const maxQueuedSignals = 20000

// arrived is a signal and the time it came off the bus.
type arrived struct {
	sig *dbus.Signal
	at  time.Time
}

// signalQueue is the connection's signal handler: it never blocks the connection's reader (it
// appends to a queue) and keeps the signals in order, unlike godbus's default handler, which
// spawns a goroutine per signal when its channel is full.
type signalQueue struct {
	mu      sync.Mutex
	items   []arrived
	notify  chan struct{}
	closed  bool
	dropped uint64
	// textPending counts, by app and path, the text-changed signals that came off the bus and are
	// not handled yet: a read answered after them holds their change already, so its text is not
	// kept for them to be applied to a second time (textSettled).
	textPending map[textKey]int
	// loseEvery and events: WithEventLoss's every n-th accessibility event is lost on arrival.
	loseEvery, events int
}

func newSignalQueue(loseEvery int) *signalQueue {
	return &signalQueue{notify: make(chan struct{}, 1), loseEvery: loseEvery, textPending: map[textKey]int{}}
}

// textKey names an element by its app's bus name and its object path.
type textKey struct{ sender, path string }

func isTextChanged(s *dbus.Signal) bool { return s.Name == eventIfacePrefix+"Object.TextChanged" }

// countText counts s among the pending text changes (by +1 or -1); called under q.mu.
func (q *signalQueue) countText(s *dbus.Signal, by int) {
	if !isTextChanged(s) {
		return
	}
	k := textKey{s.Sender, string(s.Path)}
	if q.textPending[k] += by; q.textPending[k] <= 0 {
		delete(q.textPending, k)
	}
}

// handled says that the dispatcher is done with s.
func (q *signalQueue) handled(s *dbus.Signal) {
	if !isTextChanged(s) {
		return
	}
	q.mu.Lock()
	q.countText(s, -1)
	q.mu.Unlock()
}

// textSettled reports whether no text change of the element came off the bus unhandled: only then
// may a read's text be kept for the events that follow to change.
func (q *signalQueue) textSettled(sender, path string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.textPending[textKey{sender, path}] == 0
}

// DeliverSignal implements dbus.SignalHandler.
func (q *signalQueue) DeliverSignal(_, _ string, s *dbus.Signal) {
	now := time.Now()
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	if q.loseEvery > 0 && strings.HasPrefix(s.Name, eventIfacePrefix) {
		if q.events++; q.events%q.loseEvery == 0 {
			q.mu.Unlock()
			return
		}
	}
	if len(q.items) >= maxQueuedSignals {
		q.countText(q.items[0].sig, -1)
		q.items = q.items[1:]
		q.dropped++
	}
	q.items = append(q.items, arrived{sig: s, at: now})
	q.countText(s, +1)
	select { // under the lock: close cannot run in between
	case q.notify <- struct{}{}:
	default:
	}
	q.mu.Unlock()
}

// Terminate implements dbus.Terminator: the connection closed.
func (q *signalQueue) Terminate() { q.close() }

func (q *signalQueue) close() {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.notify)
	}
	q.mu.Unlock()
}

// take returns the queued signals, waiting for some; ok is false once the queue is closed.
func (q *signalQueue) take() ([]arrived, bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			out := q.items
			q.items = nil
			q.mu.Unlock()
			return out, true
		}
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return nil, false
		}
		<-q.notify
	}
}
