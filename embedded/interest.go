package embedded

import (
	"context"
	"sync"

	"github.com/nats-io/nats-server/v2/server"
)

// Interest counts the subscriptions that a message published on subject would reach, from any
// connection of the server (TCP clients such as the nats CLI, the in-process connection, leaf
// nodes): those on subject itself and the wildcards that cover it (ax.h.snap.*, ax.>, >).
//
// The server has no callback for interest in a subject that wildcards may cover, so a caller
// asks at every cycle of its work instead of being told, and the answer is cheap: with nobody
// listening it is one match in the account's subscription list (about 0.15 µs). The match
// alone counts only the first level that matches (a client on ax.h.snap.* and one on
// ax.h.snap.gedit count as one), so with someone listening the exact count comes from a scan
// of the account's subscriptions (about 65 µs with a daemon's 130), made again only once the
// account's subscriptions changed. The account is the daemon's: a client of another account
// that receives the subject through an import has its shadow subscription there.
func (s *Server) Interest(subject string) int {
	acc := s.daemonAccount()
	if !acc.SubscriptionInterest(subject) {
		return 0
	}
	return s.counts.of(s.ns, acc, subject)
}

// StreamConsumers counts the consumers of stream name (a tail of the event history is one): the
// interest in its subjects that Interest does not see, since a consumer's messages go to its own
// delivery subject. It asks the JetStream API, a request of the in-process connection.
func (s *Server) StreamConsumers(ctx context.Context, name string) (int, error) {
	st, err := s.js.Stream(ctx, name)
	if err != nil {
		return 0, err
	}
	info, err := st.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.Consumers, nil
}

// interestCounts remembers exact counts until the account's subscriptions change.
type interestCounts struct {
	mu     sync.Mutex
	total  int // the account's subscriptions when the counts were made
	counts map[string]int
}

func (c *interestCounts) of(ns *server.Server, acc *server.Account, subject string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if total := acc.TotalSubs(); total != c.total || c.counts == nil {
		c.total, c.counts = total, map[string]int{}
	}
	if n, ok := c.counts[subject]; ok {
		return n
	}
	n := 1 // a leaf node's subscription, which Subsz does not list
	if sz, err := ns.Subsz(&server.SubszOptions{Subscriptions: true, Limit: 1, Account: acc.GetName(), Test: subject}); err == nil && sz.Total > 0 {
		n = sz.Total
	}
	c.counts[subject] = n
	return n
}

// daemonAccount is the account of the daemon's connection: DaemonAccount with WithAccess, the
// global one otherwise.
func (s *Server) daemonAccount() *server.Account {
	if s.access != nil {
		if acc, err := s.ns.LookupAccount(DaemonAccount); err == nil {
			return acc
		}
	}
	return s.ns.GlobalAccount()
}
