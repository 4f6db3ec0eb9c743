package daemon

import (
	"context"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
)

// connzPage is how many connections one Connz call lists (the server's default).
const connzPage = 1024

// presence is the agents endpoint's operation: the identities connected now, from the server's
// own list of connections (each with its account: the identity's), never from what clients say.
func presence(s *embedded.Server) func(ctx context.Context) ([]api.Agent, error) {
	return func(ctx context.Context) ([]api.Agent, error) {
		byName := map[string]*api.Agent{}
		var names []string
		for offset := 0; ; {
			cz, err := s.NATS().Connz(&server.ConnzOptions{Username: true, Sort: server.ByCid, Offset: offset, Limit: connzPage})
			if err != nil {
				return nil, err
			}
			for _, c := range cz.Conns {
				u, ok := s.UserOfAccount(c.Account)
				if !ok {
					continue // the daemon's own connection, or a user removed a moment ago
				}
				a := byName[u.Name]
				if a == nil {
					a = &api.Agent{Name: u.Name, Role: u.Role, Since: c.Start}
					byName[u.Name] = a
					names = append(names, u.Name)
				}
				if c.Start.Before(a.Since) {
					a.Since = c.Start
				}
				a.Connections = append(a.Connections, api.AgentConn{ID: c.Cid, Since: c.Start, Name: c.Name, Lang: c.Lang, Version: c.Version})
			}
			offset += len(cz.Conns)
			if len(cz.Conns) < connzPage || offset >= cz.Total || ctx.Err() != nil {
				break
			}
		}
		out := make([]api.Agent, 0, len(names))
		for _, n := range names {
			out = append(out, *byName[n])
		}
		return out, ctx.Err()
	}
}

// connected says whether the server still has connection conn: a client's, or a leaf node's
// (a hub's requests carry the link's connection). A map lookup in the server, no message.
func connected(s *embedded.Server) func(conn uint64) bool {
	return func(conn uint64) bool {
		ns := s.NATS()
		return ns.GetClient(conn) != nil || ns.GetLeafNode(conn) != nil
	}
}
