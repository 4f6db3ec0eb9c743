package daemon

import (
	"context"
	"slices"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
)

// grants are what each role's accounts reach of the daemon's (the server enforces them: a
// subject a role does not import leads nowhere). Every role receives the events, diffs, replays' progress,
// action records and lease changes, reads the history (the event stream and the audit stream)
// and calls the endpoints its kind allows (api.Kind.May, the one role table: a monitor observes
// the tree, not the screen's pixels); only the daemon publishes on those subjects. Only an admin
// purges the events (nobody the audit trail), lists consumers and reaches every one; the other
// roles' consumer calls go through the daemon (bus.JetStreamProxy), which lets each identity
// reach its own alone. Nobody creates a stream, or a consumer outside the daemon.
func grants(subj api.Subjects) map[string]embedded.Grant {
	streams := []string{subj.StreamName(), subj.AuditStreamName()}
	own := []string{subj.AllEvents(), subj.AllSnapsBelow(), subj.AllActions(), subj.AllLeases(), subj.AllFlows()}
	hear := append(slices.Clone(own), subj.Coordination("*"))
	out := map[string]embedded.Grant{}
	for _, role := range api.Roles {
		g := embedded.Grant{Services: []string{"$SRV.>"}, Streams: hear, JetStream: historyAPI(streams, subj.StreamName(), role),
			DenyPublish: own, DenySubscribe: []string{subj.API() + ".>"}, Proxied: consumerCalls(subj, streams, role),
			AllPrivate: role == api.RoleAdmin}
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
		out[role] = g
	}
	return out
}

// historyAPI are the JetStream subjects of the history that role reaches directly: every role
// reads the streams and pulls from consumers; an admin also purges the events (purgeable), lists
// the consumers and asks for the info of, acks and deletes any of them.
func historyAPI(streams []string, purgeable, role string) []string {
	calls := []string{"$JS.API.INFO", "$JS.API.STREAM.NAMES", "$JS.API.STREAM.LIST"}
	for _, stream := range streams {
		calls = append(calls, "$JS.API.STREAM.INFO."+stream, "$JS.API.STREAM.MSG.GET."+stream,
			"$JS.API.DIRECT.GET."+stream, "$JS.API.DIRECT.GET."+stream+".>")
		// Pulls go straight to JetStream (the daemon cannot relay a message with its ack subject).
		calls = append(calls, "$JS.API.CONSUMER.MSG.NEXT."+stream+".>")
		if role == api.RoleAdmin {
			calls = append(calls, ownedConsumerCalls(stream)[:2]...)
			calls = append(calls, "$JS.ACK."+stream+".>", "$JS.API.CONSUMER.NAMES."+stream, "$JS.API.CONSUMER.LIST."+stream)
		}
	}
	if role == api.RoleAdmin {
		calls = append(calls, "$JS.API.STREAM.PURGE."+purgeable)
	}
	return calls
}

// consumerCalls routes a client's consumer calls on the history through the daemon
// (bus.JetStreamProxy): every role's creations, which it refuses for push consumers (their
// delivery subject would be one of the daemon's account, so JetStream itself would publish
// stored events there: on the API, as requests no identity vouches for, or on the live event
// subjects), for durables not named under their identity and past the identity's count; and the
// calls on a consumer of roles other than admin, which it makes for the consumer's owner alone.
func consumerCalls(subj api.Subjects, streams []string, role string) []embedded.Proxy {
	var out []embedded.Proxy
	for _, stream := range streams {
		calls := consumerCreationCalls(stream)
		if role != api.RoleAdmin {
			calls = append(calls, ownedConsumerCalls(stream)...)
		}
		for _, c := range calls {
			out = append(out, embedded.Proxy{Local: c, Daemon: subj.ProxiedJetStream(c)})
		}
	}
	return out
}

// consumerCreationCalls are the calls that make a consumer on stream.
func consumerCreationCalls(stream string) []string {
	return []string{"$JS.API.CONSUMER.CREATE." + stream, "$JS.API.CONSUMER.CREATE." + stream + ".>",
		"$JS.API.CONSUMER.DURABLE.CREATE." + stream + ".>"}
}

// ownedConsumerCalls are the calls on one consumer of stream that its owner alone makes: its
// info and its deletion.
func ownedConsumerCalls(stream string) []string {
	return []string{"$JS.API.CONSUMER.INFO." + stream + ".>", "$JS.API.CONSUMER.DELETE." + stream + ".>"}
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
			return nil, model.Errorf(model.CodeBadRequest, "See the identities with: axbus creds ls", "%v", err)
		}
		reply := &api.CredsReply{Users: []api.User{}}
		for _, u := range s.Users() {
			reply.Users = append(reply.Users, api.User{Name: u.Name, Role: u.Role, Nkey: u.Nkey})
		}
		return reply, nil
	}
}
