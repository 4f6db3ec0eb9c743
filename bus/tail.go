package bus

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/nats-io/nats.go"
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
}

// Tail follows the host's events through its JetStream stream (an ordered consumer: no event
// is lost to a slow reader, unlike a plain subscription) until ctx ends. The channel is closed
// then.
func (c *Client) Tail(ctx context.Context, opt TailOptions) (<-chan api.Envelope, error) {
	return tail[api.Envelope](ctx, c, c.subj.Events(opt.App, opt.Type), opt)
}

// tail follows the stream's messages on filter, each decoded as a T.
func tail[T any](ctx context.Context, c *Client, filter string, opt TailOptions) (<-chan T, error) {
	in, err := tailReplayed[T](ctx, c, filter, opt)
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
func tailReplayed[T any](ctx context.Context, c *Client, filter string, opt TailOptions) (<-chan tailed[T], error) {
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
			m.ok = json.Unmarshal(msg.Data(), &m.v) == nil
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

// EventsAfter returns up to limit of the host's stored events after cursor (a stream sequence;
// 0: from the oldest kept, or from opt.Since ago), each with its sequence, waiting up to wait for the first when there
// are none yet: how an agent that cannot hold a subscription (an MCP tool call) still misses
// none, by asking again from the last sequence it got.
func (c *Client) EventsAfter(ctx context.Context, cursor uint64, limit int, wait time.Duration, opt TailOptions) ([]SequencedEvent, error) {
	cons, err := c.orderedConsumer(ctx, c.subj.Events(opt.App, opt.Type), cursor, jetstream.DeliverAllPolicy, opt)
	if err != nil {
		return nil, err
	}
	batch, err := cons.FetchNoWait(limit)
	if err != nil {
		return nil, natsTrouble("events", err)
	}
	out := collect(batch)
	if len(out) > 0 || wait <= 0 {
		return out, nil
	}
	msg, err := cons.Next(jetstream.FetchMaxWait(wait)) // nothing yet: wait for one
	switch {
	case errors.Is(err, nats.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return nil, nil
	case err != nil:
		return nil, natsTrouble("events", err)
	}
	out = appendEvent(nil, msg)
	if limit > 1 {
		if batch, err = cons.FetchNoWait(limit - 1); err == nil {
			out = append(out, collect(batch)...)
		}
	}
	return out, nil
}

// SequencedEvent is an event with its sequence in the host's stream: the cursor after it.
type SequencedEvent struct {
	Seq   uint64
	Event api.Envelope
}

func collect(batch jetstream.MessageBatch) []SequencedEvent {
	var out []SequencedEvent
	for msg := range batch.Messages() {
		out = appendEvent(out, msg)
	}
	return out
}

func appendEvent(out []SequencedEvent, msg jetstream.Msg) []SequencedEvent {
	meta, err := msg.Metadata()
	var env api.Envelope
	if err != nil || json.Unmarshal(msg.Data(), &env) != nil {
		return out
	}
	return append(out, SequencedEvent{Seq: meta.Sequence.Stream, Event: env})
}

// orderedConsumer is an ordered consumer of the host's stream on filter: after cursor when one
// is given, else from where opt says, else by policy.
func (c *Client) orderedConsumer(ctx context.Context, filter string, cursor uint64, policy jetstream.DeliverPolicy, opt TailOptions) (jetstream.Consumer, error) {
	// The host's domain, not the default API prefix: through a hub every host's JetStream is in
	// reach, and only its domain's names lead to this host's alone.
	js, err := jetstream.NewWithDomain(c.nc, c.subj.Host)
	if err != nil {
		return nil, natsTrouble("jetstream", err)
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
	cons, err := js.OrderedConsumer(ctx, c.subj.StreamName(), cfg)
	if err != nil {
		if errors.Is(err, jetstream.ErrStreamNotFound) {
			return nil, observer.Errorf(observer.CodeUnavailable, "Check the host name (--host) and that its daemon runs.",
				"no event stream %s", c.subj.StreamName())
		}
		return nil, natsTrouble("a consumer of the event stream", err)
	}
	return cons, nil
}
