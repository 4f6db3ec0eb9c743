package client

import (
	"context"
	"time"

	"github.com/axbus/axbus/api"
)

// TailFleet follows the events of every client's host at once (clients of one connection to a
// hub, one per host), merged in time order: each host's stream is tailed by a consumer of its
// own in its own JetStream domain, so a host's history, kept while the hub was away, is
// delivered when the hub is back, and the replay opt asks for is merged across hosts before
// live events flow as they come. An app is known when one host knows it (Tail).
func TailFleet(ctx context.Context, clients []*Client, opt TailOptions) (<-chan api.Envelope, error) {
	if err := checkSelection(ctx, clients, opt); err != nil {
		return nil, err
	}
	return tailFleet(ctx, clients, func(c *Client) string { return c.subj.Events(opt.App, opt.Type) },
		func(e api.Envelope) time.Time { return e.Time }, opt, kept(opt))
}

// TailFleetActions is TailFleet for the hosts' action records.
func TailFleetActions(ctx context.Context, clients []*Client, opt TailOptions) (<-chan api.ActionRecord, error) {
	return tailFleet(ctx, clients, func(c *Client) string { return c.subj.Actions(opt.App, opt.Type) },
		func(r api.ActionRecord) time.Time { return r.Time }, opt, nil)
}

// fromHost is a message of one host's tail.
type fromHost[T any] struct {
	host int
	m    tailed[T]
}

func tailFleet[T any](ctx context.Context, clients []*Client, filter func(*Client) string, at func(T) time.Time, opt TailOptions, keep func(*T) bool) (<-chan T, error) {
	ctx, cancel := context.WithCancel(ctx)
	in := make(chan fromHost[T], 256)
	for i, c := range clients {
		tail, err := tailReplayed(ctx, c, filter(c), opt, keep)
		if err != nil {
			cancel()
			return nil, err
		}
		go func() {
			for m := range tail {
				select {
				case in <- fromHost[T]{i, m}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	out := make(chan T, 256)
	go func() {
		defer cancel()
		defer close(out)
		m := merger[T]{queued: make([][]T, len(clients)), caughtUp: make([]bool, len(clients)), at: at}
		for {
			select {
			case f := <-in:
				m.add(f)
				for v, ok := m.next(); ok; v, ok = m.next() {
					select {
					case out <- v:
					case <-ctx.Done():
						return
					}
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// merger orders the hosts' replays by time: the oldest queued message goes first once every
// host still replaying has one queued, so no host's older message can come after it. A host
// that has caught up sends only live messages, which go as they come.
type merger[T any] struct {
	queued   [][]T
	caughtUp []bool
	at       func(T) time.Time
}

func (m *merger[T]) add(f fromHost[T]) {
	if f.m.ok {
		m.queued[f.host] = append(m.queued[f.host], f.m.v)
	}
	if f.m.caughtUp {
		m.caughtUp[f.host] = true
	}
}

// next is the message to send now, if one may go.
func (m *merger[T]) next() (T, bool) {
	oldest := -1
	for h, q := range m.queued {
		switch {
		case len(q) == 0 && !m.caughtUp[h]:
			var zero T
			return zero, false // this host may yet replay an older one
		case len(q) > 0 && (oldest < 0 || m.at(q[0]).Before(m.at(m.queued[oldest][0]))):
			oldest = h
		}
	}
	if oldest < 0 {
		var zero T
		return zero, false
	}
	v := m.queued[oldest][0]
	m.queued[oldest] = m.queued[oldest][1:]
	return v, true
}
