package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Bounds of a page of events.
const (
	// maxScan bounds the events one page reads, those left out included: a page of rare events
	// in a long history ends there, More set, rather than read the whole stream.
	maxScan = 10000
	// fetchBatch bounds one fetch; minFetch keeps a page of few events from fetching them one
	// by one through a run of left-out ones.
	fetchBatch, minFetch = 1000, 100
	// waitStep bounds one wait for a new event, so that a cancelled request stops waiting soon.
	waitStep = time.Second
)

// EventsPage is a page of the host's stored events and where the next one starts.
type EventsPage struct {
	Events []SequencedEvent
	// Cursor is the sequence of the last event read, one left out included: the next page is
	// after it.
	Cursor uint64
	// More says the stream held more of the events asked for after Cursor when it was read.
	More bool
	// Excluded counts the events read and left out by TailOptions.Exclude.
	Excluded int
	// Earlier counts the events read and left out as older than the page's (RecentEvents).
	Earlier int
}

// SequencedEvent is an event with its sequence in the host's stream: the cursor after it.
type SequencedEvent struct {
	Seq   uint64
	Event api.Envelope
}

// EventsAfter returns a page of up to limit of the host's stored events after cursor (a stream
// sequence; 0: from the oldest kept, or from opt.Since ago) that opt selects, waiting up to wait
// for the first when there are none yet: how an agent that cannot hold a subscription (an MCP
// tool call) still misses none, by asking again from the page's cursor. A page reads at most
// 10,000 events (those left out included). A request that can select nothing is an error: an
// unknown type (BAD_REQUEST), a cursor past the stream's end (BAD_REQUEST, naming its last
// sequence), an app that neither runs nor has an event kept (APP_NOT_FOUND, naming the running
// ones).
func (c *Client) EventsAfter(ctx context.Context, cursor uint64, limit int, wait time.Duration, opt TailOptions) (*EventsPage, error) {
	if err := CheckEventType(opt.Type); err != nil {
		return nil, err
	}
	filter := c.subj.Events(opt.App, opt.Type)
	cons, err := c.orderedConsumer(ctx, filter, cursor, jetstream.DeliverAllPolicy, opt)
	if err != nil {
		return nil, err
	}
	defer c.dropConsumer(cons, filter)
	r := pageReader{page: &EventsPage{Cursor: cursor}, limit: max(limit, 1), exclude: opt.Exclude}
	if err := r.fetch(cons); err != nil {
		return nil, err
	}
	if r.read == 0 {
		if err := c.checkAfter(ctx, cursor, opt.App); err != nil {
			return nil, err
		}
	}
	deadline := time.Now().Add(wait)
	for len(r.page.Events) == 0 && !r.full() && ctx.Err() == nil {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		msg, err := cons.Next(jetstream.FetchMaxWait(min(left, waitStep))) // none yet: wait for one
		switch {
		case errors.Is(err, nats.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
			continue
		case err != nil:
			return nil, natsTrouble("events", err)
		}
		r.take(msg)
		if err := r.fetch(cons); err != nil {
			return nil, err
		}
	}
	return r.page, nil
}

// RecentEvents is the newest limit events that opt selects (of the last opt.Since, when given)
// among the stream's last 10,000: the present, read in bounded time however long the history.
// Its cursor is the last sequence read, for EventsAfter to go on from.
func (c *Client) RecentEvents(ctx context.Context, limit int, opt TailOptions) (*EventsPage, error) {
	last, _, err := c.history(ctx, "")
	if err != nil {
		return nil, err
	}
	var from uint64
	if last > maxScan {
		from = last - maxScan
	}
	since := time.Time{}
	if opt.Since > 0 {
		since = time.Now().Add(-opt.Since)
	}
	opt.Since, opt.All, opt.LastPerSubject = 0, false, false
	p, err := c.EventsAfter(ctx, from, maxScan, 0, opt)
	if err != nil {
		return nil, err
	}
	recent := p.Events[:0]
	for _, e := range p.Events {
		if !e.Event.Time.Before(since) {
			recent = append(recent, e)
		}
	}
	p.Earlier = max(len(recent)-limit, 0)
	p.Events = recent[p.Earlier:]
	return p, nil
}

// pageReader fills a page from a consumer.
type pageReader struct {
	page    *EventsPage
	limit   int
	exclude []EventKind
	read    int // messages read, those left out included
}

func (r *pageReader) full() bool { return len(r.page.Events) >= r.limit || r.read >= maxScan }

// fetch reads what the stream holds now, batch by batch, until the page is full or nothing is left.
func (r *pageReader) fetch(cons jetstream.Consumer) error {
	size := min(max(r.limit, minFetch), fetchBatch)
	for !r.full() {
		batch, err := cons.FetchNoWait(size)
		if err != nil {
			return natsTrouble("events", err)
		}
		n := 0
		for msg := range batch.Messages() {
			n++
			r.take(msg) // a full page drains the rest unread
		}
		if n < size {
			return nil
		}
	}
	return nil
}

// take reads msg into the page unless it is full (then there is more).
func (r *pageReader) take(msg jetstream.Msg) {
	if r.full() {
		r.page.More = true
		return
	}
	meta, err := msg.Metadata()
	if err != nil {
		return
	}
	r.read++
	r.page.Cursor, r.page.More = meta.Sequence.Stream, meta.NumPending > 0
	var env api.Envelope
	switch {
	case json.Unmarshal(msg.Data(), &env) != nil: // not an event: passed over
	case Excludes(r.exclude, &env):
		r.page.Excluded++
	default:
		r.page.Events = append(r.page.Events, SequencedEvent{Seq: meta.Sequence.Stream, Event: env})
	}
}

// checkAfter says why a page after cursor read nothing when the request is at fault: a cursor
// past the stream's last sequence, or an app that neither runs nor has an event kept.
func (c *Client) checkAfter(ctx context.Context, cursor uint64, app string) error {
	last, kept, err := c.history(ctx, app)
	if err != nil {
		return err
	}
	if cursor > last {
		return model.Errorf(model.CodeBadRequest,
			fmt.Sprintf("Give a cursor of at most %d (the stream's last event), or 0 for the oldest kept.", last),
			"cursor %d is past the end of the event stream (%d)", cursor, last).With("last", last)
	}
	if app == "" || kept {
		return nil
	}
	if known, running := c.runs(ctx, app); !known {
		return appNotFound(app, running)
	}
	return nil
}

// checkSelection refuses what selects no event on any of the clients' hosts: a type that is
// none, or an app that none of them runs or has an event of kept.
func checkSelection(ctx context.Context, clients []*Client, opt TailOptions) error {
	if err := CheckEventType(opt.Type); err != nil || opt.App == "" {
		return err
	}
	var running []string
	for _, c := range clients {
		_, kept, err := c.history(ctx, opt.App)
		if err != nil || kept {
			return err
		}
		known, names := c.runs(ctx, opt.App)
		if known {
			return nil
		}
		running = append(running, names...)
	}
	return appNotFound(opt.App, running)
}

// history is the host's stream's last sequence, and whether it keeps an event of app.
func (c *Client) history(ctx context.Context, app string) (last uint64, kept bool, err error) {
	js, err := c.jetStream()
	if err != nil {
		return 0, false, err
	}
	s, err := js.Stream(ctx, c.subj.StreamName())
	if err != nil {
		return 0, false, c.streamTrouble(c.subj.StreamName(), "the event stream's state", err)
	}
	if app == "" {
		return s.CachedInfo().State.LastSeq, false, nil
	}
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(c.subj.Events(app, "")))
	if err != nil {
		return 0, false, c.streamTrouble(c.subj.StreamName(), "the event stream's state", err)
	}
	return info.State.LastSeq, len(info.State.Subjects) > 0, nil
}

// runs reports whether the host runs app (as subjects name it), and which apps it runs; true
// when it cannot tell.
func (c *Client) runs(ctx context.Context, app string) (bool, []string) {
	apps, err := c.Apps(ctx)
	if err != nil {
		return true, nil
	}
	names := make([]string, 0, len(apps))
	for _, a := range apps {
		if api.Token(a.Name) == api.Token(app) {
			return true, nil
		}
		names = append(names, a.Name)
	}
	return false, names
}

// appNotFound is the error of an app filter that names no app.
func appNotFound(app string, running []string) error {
	return model.Errorf(model.CodeAppNotFound,
		"Name one of the running apps ("+strings.Join(running, ", ")+"), or none for every app's events.",
		"no app %q runs or has events kept", app).With("running", running)
}
