package bus

import (
	"strings"

	"github.com/axbus/axbus/api"
	"github.com/nats-io/nats.go"
)

// Relay publishes what agents say on their coordination subjects to everyone. A message of
// agent A's account on <prefix>.<host>.coord.A.x reaches the daemon's account on
// ...relay.coord.A.x, the server vouching for A; the daemon publishes it on ...coord.A.x, which
// every role receives. So an agent speaks only under its own name.
type Relay struct {
	sub *nats.Subscription
}

// StartRelay relays until Stop.
func StartRelay(nc *nats.Conn, subj api.Subjects) (*Relay, error) {
	in := strings.TrimSuffix(subj.CoordinationRelay("*"), "*.>")
	out := strings.TrimSuffix(subj.Coordination("*"), "*.>")
	sub, err := nc.Subscribe(subj.CoordinationRelay("*"), func(m *nats.Msg) {
		if m.Header.Get(requestInfoHeader) == "" {
			return // not from an agent's account
		}
		_ = nc.PublishMsg(&nats.Msg{Subject: out + strings.TrimPrefix(m.Subject, in), Data: m.Data})
	})
	if err != nil {
		return nil, err
	}
	return &Relay{sub: sub}, nil
}

// Stop stops relaying.
func (r *Relay) Stop() error { return r.sub.Unsubscribe() }
