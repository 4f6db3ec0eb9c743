package bus

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
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
	js, err := jetstream.New(c.nc)
	if err != nil {
		return nil, natsTrouble("jetstream", err)
	}
	cfg := jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{filter},
		DeliverPolicy:  jetstream.DeliverNewPolicy,
	}
	switch {
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
		return nil, natsTrouble("tail", err)
	}
	out := make(chan T, 256)
	msgs, err := cons.Messages()
	if err != nil {
		return nil, natsTrouble("tail", err)
	}
	go func() {
		<-ctx.Done()
		msgs.Stop()
	}()
	go func() {
		defer close(out)
		for {
			msg, err := msgs.Next()
			if err != nil {
				return // stopped, or the connection closed
			}
			var v T
			if json.Unmarshal(msg.Data(), &v) != nil {
				continue
			}
			select {
			case out <- v:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}
