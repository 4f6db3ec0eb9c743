package bus

import (
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/nats-io/nats.go"
)

// DefaultQueue is the publisher's queue length: about a second of a very busy desktop.
const DefaultQueue = 8192

// Publisher publishes observer events on their subjects. Offer never blocks: when the queue is
// full the event is dropped and counted, and the next published envelope reports the gap.
type Publisher struct {
	nc   *nats.Conn
	subj api.Subjects
	boot string
	log  *slog.Logger

	queue     chan model.Event
	gap       atomic.Uint64
	dropped   atomic.Uint64
	published atomic.Uint64
	done      chan struct{}
	stopOnce  sync.Once
}

// NewPublisher starts a publisher on nc with a queue of n events (0 means DefaultQueue).
func NewPublisher(nc *nats.Conn, subj api.Subjects, n int, log *slog.Logger) *Publisher {
	if n <= 0 {
		n = DefaultQueue
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Publisher{
		nc: nc, subj: subj, log: log,
		boot:  strconv.FormatInt(time.Now().UnixNano(), 36),
		queue: make(chan model.Event, n),
		done:  make(chan struct{}),
	}
	go p.run()
	return p
}

// Offer queues e for publishing without ever blocking; it reports whether e was queued.
func (p *Publisher) Offer(e model.Event) bool {
	select {
	case p.queue <- e:
		return true
	default:
		p.gap.Add(1)
		if n := p.dropped.Add(1); n&(n-1) == 0 { // log at powers of two, not per event
			p.log.Warn("event queue full: dropping events", "dropped", n)
		}
		return false
	}
}

// Stats returns the publisher's counters.
func (p *Publisher) Stats() api.PublisherStats {
	return api.PublisherStats{Published: p.published.Load(), Dropped: p.dropped.Load(), Queued: len(p.queue), Capacity: cap(p.queue)}
}

// Boot is the id of this daemon run, in every envelope.
func (p *Publisher) Boot() string { return p.boot }

// Close publishes what is queued and stops. Offer must not be called after Close.
func (p *Publisher) Close() {
	p.stopOnce.Do(func() { close(p.queue) })
	<-p.done
}

// maxSubjects bounds an encoder's memo of subjects; past it the memo starts over.
const maxSubjects = 4096

// subjectKey is what an event's subject is made of besides the host.
type subjectKey struct{ app, eventType string }

// encoder turns events into subjects and envelopes, reusing its buffer and building each app's
// and type's subject once: no allocation per event on the way to the server.
type encoder struct {
	subj     api.Subjects
	boot     string
	seq      uint64
	data     []byte // reused: Publish copies it into the connection's buffer
	subjects map[subjectKey]string
}

// encode returns e's subject and envelope with the next sequence number and gap; the bytes are
// valid until the next call.
func (c *encoder) encode(e model.Event, gap uint64) (string, []byte, error) {
	c.seq++
	e, cuts := api.Bounded(e) // an event stays a few KiB, however long a value in the app
	env := api.Envelope{Host: c.subj.Host, Boot: c.boot, Seq: c.seq, Gap: gap, Event: e, Cut: cuts}
	var err error
	if c.data, err = env.AppendJSON(c.data[:0]); err != nil {
		return "", nil, err
	}
	key := subjectKey{e.App.Name, string(e.Type)}
	subject, ok := c.subjects[key]
	if !ok {
		if c.subjects == nil || len(c.subjects) >= maxSubjects {
			c.subjects = map[subjectKey]string{}
		}
		subject = c.subj.Event(key.app, key.eventType)
		c.subjects[key] = subject
	}
	return subject, c.data, nil
}

func (p *Publisher) run() {
	defer close(p.done)
	enc := encoder{subj: p.subj, boot: p.boot}
	for e := range p.queue {
		subject, data, err := enc.encode(e, p.gap.Swap(0))
		if err != nil {
			p.log.Error("event not encodable", "type", e.Type, "err", err)
			continue
		}
		if err := p.nc.Publish(subject, data); err != nil {
			p.log.Warn("event not published", "subject", subject, "err", err)
			continue
		}
		p.published.Add(1)
	}
}
