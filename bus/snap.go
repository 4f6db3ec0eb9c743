package bus

import (
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/nats-io/nats.go"
)

// DefaultSnapQueue is the snapshot publisher's queue length. Diffs are few (at most one per app
// and cycle) but a reset lists a whole window, so the queue is short.
const DefaultSnapQueue = 64

// appInstance names the app instance a diff is about: its sequence is its own.
type appInstance struct {
	pid        int
	generation uint64
}

// SnapPublisher publishes the poller's diffs. Offer never blocks the poller: when the queue is
// full the diff is dropped and counted, Offer says so (the poller then owes that app a reset),
// and the app's next envelope reports the gap.
type SnapPublisher struct {
	nc   *nats.Conn
	subj api.Subjects
	boot string
	log  *slog.Logger

	queue     chan model.Diff
	seqs      map[appInstance]uint64 // owned by the run goroutine
	gapMu     sync.Mutex
	gaps      map[appInstance]uint64
	dropped   atomic.Uint64
	published atomic.Uint64
	done      chan struct{}
	stopOnce  sync.Once
}

// NewSnapPublisher starts a publisher of diffs on nc with a queue of n diffs (0 means
// DefaultSnapQueue). boot is the daemon run's id, the event publisher's Boot.
func NewSnapPublisher(nc *nats.Conn, subj api.Subjects, boot string, n int, log *slog.Logger) *SnapPublisher {
	if n <= 0 {
		n = DefaultSnapQueue
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &SnapPublisher{
		nc: nc, subj: subj, boot: boot, log: log,
		queue: make(chan model.Diff, n), seqs: map[appInstance]uint64{}, gaps: map[appInstance]uint64{},
		done: make(chan struct{}),
	}
	go p.run()
	return p
}

// Offer queues d for publishing without ever blocking; it reports whether d was queued. It is
// the poller's sink.
func (p *SnapPublisher) Offer(d model.Diff) bool {
	select {
	case p.queue <- d:
		return true
	default:
		p.lost(instanceOf(d))
		if n := p.dropped.Add(1); n&(n-1) == 0 { // log at powers of two, not per diff
			p.log.Warn("snapshot queue full: dropping diffs", "dropped", n)
		}
		return false
	}
}

// Stats returns the publisher's counters.
func (p *SnapPublisher) Stats() api.PublisherStats {
	return api.PublisherStats{Published: p.published.Load(), Dropped: p.dropped.Load(), Queued: len(p.queue), Capacity: cap(p.queue)}
}

// Close publishes what is queued and stops. Offer must not be called after Close: stop the
// poller first.
func (p *SnapPublisher) Close() {
	p.stopOnce.Do(func() { close(p.queue) })
	<-p.done
}

func instanceOf(d model.Diff) appInstance {
	return appInstance{pid: d.App.PID, generation: d.App.Generation}
}

func (p *SnapPublisher) lost(app appInstance) {
	p.gapMu.Lock()
	p.gaps[app]++
	p.gapMu.Unlock()
}

// takeGap returns and clears the count of app's diffs lost since its last publication.
func (p *SnapPublisher) takeGap(app appInstance) uint64 {
	p.gapMu.Lock()
	defer p.gapMu.Unlock()
	n := p.gaps[app]
	delete(p.gaps, app)
	return n
}

func (p *SnapPublisher) run() {
	defer close(p.done)
	for d := range p.queue {
		if p.publish(d) {
			p.published.Add(1)
		}
	}
}

// publish sends one diff in its envelope; a diff NATS refuses (too large for the server, or
// the connection closing) counts in the app's next gap.
func (p *SnapPublisher) publish(d model.Diff) bool {
	app := instanceOf(d)
	if d.Kind == model.DiffGone {
		defer delete(p.seqs, app) // the instance is over, and its sequence with it
	}
	env := api.SnapEnvelope{Host: p.subj.Host, Boot: p.boot, Seq: p.seqs[app] + 1, Gap: p.takeGap(app), Diff: d}
	data, err := json.Marshal(&env)
	if err == nil {
		err = p.nc.Publish(p.subj.Snap(d.App.Name), data)
	}
	if err != nil {
		p.log.Warn("snapshot diff not published", "app", d.App.Name, "kind", d.Kind, "bytes", len(data), "err", err)
		p.gapMu.Lock()
		p.gaps[app] += env.Gap + 1 // the gap it carried is still news
		p.gapMu.Unlock()
		return false
	}
	p.seqs[app] = env.Seq
	return true
}
