package daemon

import (
	"context"
	"slices"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/observer"
)

// grants are what each role's accounts reach of the daemon's (the server enforces them: a
// subject a role does not import leads nowhere). Every role receives the events, diffs,
// action records and lease changes, reads the event history and calls the endpoints its kind
// allows (api.Kind.May, the one role table: a monitor observes the tree, not the screen's
// pixels); only the daemon publishes on those subjects. Only an admin purges the history;
// nobody creates a stream or a consumer outside it.
func grants(subj bus.Subjects) map[string]embedded.Grant {
	stream := subj.StreamName()
	own := []string{subj.AllEvents(), subj.Prefix + "." + subj.Host + ".snap.>", subj.Prefix + "." + subj.Host + ".act.>",
		subj.Prefix + "." + subj.Host + ".lease.>"}
	hear := append(slices.Clone(own), subj.Coordination("*"))
	readHistory := historyAPI("$JS.API.", stream, api.RoleMonitor)
	out := map[string]embedded.Grant{}
	for _, role := range api.Roles {
		g := embedded.Grant{Services: []string{"$SRV.>"}, Streams: hear, JetStream: readHistory,
			DenyPublish: own, DenySubscribe: []string{subj.API() + ".>"}, Proxied: consumerCreation(subj)}
		for _, ep := range api.Endpoints {
			if ep.Kind.May(role) {
				g.Services = append(g.Services, subj.Endpoint(ep.Name))
			}
		}
		if api.Act.May(role) { // agents coordinate: each publishes under its own name, the daemon relays to all
			g.Proxied = append(g.Proxied, embedded.Proxy{Local: subj.Coordination("{user}"), Daemon: subj.CoordinationRelay("{user}")})
		} else {
			g.DenyPublish = append(slices.Clone(own), subj.Coordination("*"))
		}
		if role == api.RoleAdmin {
			g.JetStream = historyAPI("$JS.API.", stream, role)
		}
		out[role] = g
	}
	return out
}

// historyAPI are the JetStream API calls on the event stream (after apiPrefix) that role may
// make: every role reads the history; only an admin purges it and lists its consumers.
// Consumer creation is not among them: it goes through the daemon (consumerCreation).
func historyAPI(apiPrefix, stream, role string) []string {
	calls := []string{"INFO", "STREAM.NAMES", "STREAM.LIST", "STREAM.INFO." + stream, "STREAM.MSG.GET." + stream,
		"DIRECT.GET." + stream, "DIRECT.GET." + stream + ".>", "CONSUMER.INFO." + stream + ".>",
		"CONSUMER.DELETE." + stream + ".>", "CONSUMER.MSG.NEXT." + stream + ".>"}
	if role == api.RoleAdmin {
		calls = append(calls, "STREAM.PURGE."+stream, "CONSUMER.NAMES."+stream, "CONSUMER.LIST."+stream)
	}
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = apiPrefix + c
	}
	return out
}

// consumerCreation routes a client's consumer creation on the event history through the
// daemon (bus.JetStreamProxy), which refuses push consumers: their delivery subject would be
// one of the daemon's account, so JetStream itself would publish stored events there (on the
// API, as requests no identity vouches for, or on the live event subjects).
func consumerCreation(subj bus.Subjects) []embedded.Proxy {
	stream := subj.StreamName()
	var out []embedded.Proxy
	for _, api := range consumerCreationAPI(stream) {
		out = append(out, embedded.Proxy{Local: "$JS.API." + api, Daemon: subj.JetStreamProxy() + "." + api})
	}
	return out
}

// consumerCreationAPI are the calls (after the API prefix) that make a consumer on stream.
func consumerCreationAPI(stream string) []string {
	return []string{"CONSUMER.CREATE." + stream, "CONSUMER.CREATE." + stream + ".>", "CONSUMER.DURABLE.CREATE." + stream + ".>"}
}

// identities is the service's view of the server's users.
func identities(s *embedded.Server) func(account string) (api.Identity, bool) {
	return func(account string) (api.Identity, bool) {
		u, ok := s.UserOfAccount(account)
		return api.Identity{Name: u.Name, Role: u.Role}, ok
	}
}

// creds is the creds endpoint's operation on the server's users.
func creds(s *embedded.Server) func(ctx context.Context, r api.CredsRequest) (*api.CredsReply, error) {
	return func(_ context.Context, r api.CredsRequest) (*api.CredsReply, error) {
		var err error
		switch r.Op {
		case "add":
			err = s.AddUser(embedded.User{Name: r.Name, Role: r.Role, Nkey: r.Nkey})
		case "rm":
			err = s.RemoveUser(r.Name)
		}
		if err != nil {
			return nil, observer.Errorf(observer.CodeBadRequest, "See the identities with: axbus creds ls", "%v", err)
		}
		reply := &api.CredsReply{Users: []api.User{}}
		for _, u := range s.Users() {
			reply.Users = append(reply.Users, api.User{Name: u.Name, Role: u.Role, Nkey: u.Nkey})
		}
		return reply, nil
	}
}
