package client

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/nats-io/nats.go/jetstream"
)

// TailOptions choose which events to tail and from when.
type TailOptions struct {
	App  string // an app name (as in subjects); "" for all
	Type string // an event type; "" for all
	// Since replays the events of the last Since before following live ones.
	Since time.Duration
	// All replays the whole history kept by the stream first.
	All bool
	// LastPerSubject replays the newest event of each app and type first.
	LastPerSubject bool
	// Exclude leaves out the events of these kinds (events only; see ParseEventKinds).
	Exclude []EventKind
}

// Tail follows the host's events through its JetStream stream (an ordered consumer: no event
// is lost to a slow reader, unlike a plain subscription) until ctx ends. The channel is closed
// then. An unknown type is BAD_REQUEST; an app that neither runs nor has an event kept is
// APP_NOT_FOUND.
func (c *Client) Tail(ctx context.Context, opt TailOptions) (<-chan api.Envelope, error) {
	if err := checkSelection(ctx, []*Client{c}, opt); err != nil {
		return nil, err
	}
	return tail(ctx, c, c.subj.Events(opt.App, opt.Type), opt, kept(opt))
}

// kept is the filter of the events opt does not exclude (nil: all).
func kept(opt TailOptions) func(*api.Envelope) bool {
	if len(opt.Exclude) == 0 {
		return nil
	}
	return func(e *api.Envelope) bool { return !Excludes(opt.Exclude, e) }
}

// tail follows the stream's messages on filter, each decoded as a T and kept when keep (nil:
// always) says so.
func tail[T any](ctx context.Context, c *Client, filter string, opt TailOptions, keep func(*T) bool) (<-chan T, error) {
	in, err := tailReplayed(ctx, c, filter, opt, keep)
	if err != nil {
		return nil, err
	}
	out := make(chan T, 256)
	go func() {
		defer close(out)
		for m := range in {
			if !m.ok {
				continue
			}
			select {
			case out <- m.v:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// tailed is a message of a tail, decoded, and whether it is the last of the replay asked for
// (or the first live one): after it, messages come as they are recorded.
type tailed[T any] struct {
	v        T
	ok       bool // v is a message (not only the mark)
	caughtUp bool
}

// tailReplayed is tail with each message marked when the replay is over. A tail with nothing
// to replay starts with a zero message marked so.
func tailReplayed[T any](ctx context.Context, c *Client, filter string, opt TailOptions, keep func(*T) bool) (<-chan tailed[T], error) {
	cons, err := c.orderedConsumer(ctx, filter, 0, jetstream.DeliverNewPolicy, opt)
	if err != nil {
		return nil, err
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return nil, natsTrouble("tail", err)
	}
	msgs, err := cons.Messages()
	if err != nil {
		return nil, natsTrouble("tail", err)
	}
	out := make(chan tailed[T], 256)
	toReplay := info.NumPending
	if toReplay == 0 {
		out <- tailed[T]{caughtUp: true}
	}
	go func() {
		<-ctx.Done()
		msgs.Stop()
		c.dropConsumer(cons, filter)
	}()
	go func() {
		defer close(out)
		var delivered uint64
		for {
			msg, err := msgs.Next()
			if err != nil {
				return // stopped, or the connection closed
			}
			delivered++
			var m tailed[T]
			m.ok = json.Unmarshal(msg.Data(), &m.v) == nil && (keep == nil || keep(&m.v))
			if toReplay > 0 {
				meta, err := msg.Metadata()
				if m.caughtUp = delivered >= toReplay || err == nil && meta.NumPending == 0; m.caughtUp {
					toReplay = 0
				}
			}
			if !m.ok && !m.caughtUp {
				continue
			}
			select {
			case out <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// orderedConsumer is an ordered consumer of the host's stream on filter: after cursor when one
// is given, else from where opt says, else by policy.
func (c *Client) orderedConsumer(ctx context.Context, filter string, cursor uint64, policy jetstream.DeliverPolicy, opt TailOptions) (jetstream.Consumer, error) {
	js, err := c.jetStream()
	if err != nil {
		return nil, err
	}
	cfg := jetstream.OrderedConsumerConfig{FilterSubjects: []string{filter}, DeliverPolicy: policy}
	switch {
	case cursor > 0:
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, cursor+1
	case opt.All:
		cfg.DeliverPolicy = jetstream.DeliverAllPolicy
	case opt.LastPerSubject:
		cfg.DeliverPolicy = jetstream.DeliverLastPerSubjectPolicy
	case opt.Since > 0:
		start := time.Now().Add(-opt.Since)
		cfg.DeliverPolicy, cfg.OptStartTime = jetstream.DeliverByStartTimePolicy, &start
	}
	stream := c.subj.StreamOf(filter)
	// Made while linked: a creation in flight when the daemon's connection goes gets no answer,
	// ever (the soak's history reader waited out its whole context across a restart).
	linked, unlink := c.whileLinked(ctx)
	defer unlink()
	cons, err := js.OrderedConsumer(linked, stream, cfg)
	if err != nil {
		return nil, c.streamTrouble(stream, "a consumer of "+stream, linkError(linked, err))
	}
	return cons, nil
}

// dropConsumer deletes an ordered consumer done with rather than leave it to count among its
// identity's until the server finds it idle (JetStreamProxy's MaxEphemeralIdle).
func (c *Client) dropConsumer(cons jetstream.Consumer, filter string) {
	info := cons.CachedInfo()
	js, err := c.jetStream()
	if info == nil || err != nil || c.nc.IsClosed() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = js.DeleteConsumer(ctx, c.subj.StreamOf(filter), info.Name)
}

// jetStream is the JetStream API of the client's host: its domain's, not the default API
// prefix, for through a hub every host's JetStream is in reach, and only its domain's names
// lead to this host's alone.
func (c *Client) jetStream() (jetstream.JetStream, error) {
	js, err := jetstream.NewWithDomain(c.nc, c.subj.Host)
	if err != nil {
		return nil, natsTrouble("jetstream", err)
	}
	return js, nil
}

// streamTrouble is a failed call on one of the host's streams: UNAVAILABLE, saying when the
// stream is missing.
func (c *Client) streamTrouble(stream, what string, err error) error {
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return model.Errorf(model.CodeUnavailable, "Check the host name (--host) and that its daemon runs.",
			"no stream %s", stream)
	}
	return natsTrouble(what, err)
}

// TailActions follows the host's action records through its stream, as Tail does its events:
// opt.Type is an action's name.
func (c *Client) TailActions(ctx context.Context, opt TailOptions) (<-chan api.ActionRecord, error) {
	return tail[api.ActionRecord](ctx, c, c.subj.Actions(opt.App, opt.Type), opt, nil)
}
