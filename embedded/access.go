package embedded

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The accounts of the server. The daemon's own (in-process) user is alone in DaemonAccount,
// which serves the API, publishes events and keeps JetStream. Every client user has an account
// of its own, which reaches the daemon's only through what its role imports: a role the client
// does not have is a subject that leads nowhere, and one client cannot see another's
// subjects (its replies included) at all.
const DaemonAccount = "AXBUS"

// Grant is what a role's accounts import from the daemon's.
type Grant struct {
	// Services are request subjects the daemon answers (wildcards allowed); the requester's
	// identity travels with each request (the server's Nats-Request-Info header).
	Services []string
	// Streams are subjects the daemon publishes that the account receives.
	Streams []string
	// JetStream are $JS.API subjects of the daemon's JetStream, imported as they are: the
	// account has no JetStream of its own, so jetstream clients and `nats stream ...` reach the
	// daemon's streams with the default API prefix, and only through these.
	// With a JetStream domain (WithJetStreamDomain) they are imported a second time as
	// $JS.<domain>.API...: the names a client of that domain uses, which through a hub (where
	// every host's JetStream is in reach) lead to this host's alone.
	JetStream []string
	// DenyPublish are subjects the account may not publish on, even to itself (the daemon's
	// own subjects: a forged event would mislead only its own account's subscribers, but it is
	// refused all the same).
	DenyPublish []string
	// DenySubscribe are subjects the account may not subscribe to (the daemon's requests: no
	// one but the daemon answers them).
	DenySubscribe []string
	// Proxied are requests on a local subject (Local) that the daemon answers on another of its
	// own (Daemon), identity shared: a JetStream API call it checks before making it.
	// Both subjects may hold {user}, the account's user (an agent's own coordination
	// subjects, which the daemon relays to everyone); the daemon exports them with "*" there.
	Proxied []Proxy
	// AllPrivate reaches every identity's private subjects (Server.SetPrivate); without it an
	// account may not publish on another identity's.
	AllPrivate bool
}

// Proxy maps a request subject of a client account onto the daemon's, same wildcards.
type Proxy struct {
	Local, Daemon string
}

// User is a client identity: a name (its account's), a role and its nkey's public key. A web
// user (the console's page) connects over the WebSocket listener only, every other over TCP only.
type User struct {
	Name string `json:"name"`
	Role string `json:"role"`
	Nkey string `json:"nkey"`
	Web  bool   `json:"web,omitempty"`
}

// connectionType is the one kind of connection u may make.
func (u User) connectionType() string {
	if u.Web {
		return "WEBSOCKET"
	}
	return "STANDARD"
}

// userName is what a user (and its account) may be called.
var userName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// CheckUserName says why name cannot be a user's name, or nil.
func CheckUserName(name string) error {
	if !userName.MatchString(name) || strings.EqualFold(name, DaemonAccount) || name == "sys" || name == HubUser {
		return fmt.Errorf("user name %q: use 1 to 32 lower-case letters, digits, - and _, starting with a letter (not axbus, sys or hub)", name)
	}
	return nil
}

// accountsConfig is the accounts section of the server's configuration: the daemon's account
// exporting every grant's subjects, and one account per user importing its role's.
// private are subjects each publishable only by its owner (and AllPrivate roles).
func accountsConfig(daemonNkey string, roles map[string]Grant, users []User, domain string, private map[string]string) (string, error) {
	var services, streams []string
	for _, name := range sortedKeys(roles) {
		g := roles[name]
		services = append(append(services, g.Services...), g.JetStream...)
		for _, p := range g.Proxied {
			services = append(services, strings.ReplaceAll(p.Daemon, "{user}", "*"))
		}
		streams = append(streams, g.Streams...)
	}
	services, streams = unique(services), unique(streams)

	var b strings.Builder
	b.WriteString("accounts: {\n")
	fmt.Fprintf(&b, "  %s: {\n    jetstream: enabled\n", DaemonAccount)
	fmt.Fprintf(&b, "    users: [{nkey: %q, allowed_connection_types: [\"IN_PROCESS\"]}]\n", daemonNkey)
	b.WriteString("    exports: [\n")
	for _, s := range services {
		// Streamed: a wait answers "armed" before its outcome; a pull consumer many messages.
		fmt.Fprintf(&b, "      {service: %q, response_type: \"stream\"}\n", s)
	}
	for _, s := range streams {
		fmt.Fprintf(&b, "      {stream: %q}\n", s)
	}
	b.WriteString("    ]\n  }\n")
	for _, u := range users {
		if err := CheckUserName(u.Name); err != nil && u.Name != HubUser { // the leaf's own
			return "", err
		}
		g, ok := roles[u.Role]
		if !ok {
			return "", fmt.Errorf("user %s: unknown role %q", u.Name, u.Role)
		}
		fmt.Fprintf(&b, "  %s: {\n", u.Name)
		fmt.Fprintf(&b, "    users: [{nkey: %q, allowed_connection_types: [%q]", u.Nkey, u.connectionType())
		deny := slices.Clone(g.DenyPublish)
		if !g.AllPrivate {
			for _, s := range sortedKeys(private) {
				if private[s] != u.Name {
					deny = append(deny, unique([]string{s, inDomain(domain, s)})...)
				}
			}
		}
		if len(deny)+len(g.DenySubscribe) > 0 {
			fmt.Fprintf(&b, ", permissions: {publish: {deny: %s}, subscribe: {deny: %s}}", quoteList(deny), quoteList(g.DenySubscribe))
		}
		b.WriteString("}]\n    imports: [\n")
		for _, s := range append(slices.Clone(g.Services), g.JetStream...) {
			share := slices.Contains(g.Services, s)
			fmt.Fprintf(&b, "      {service: {account: %s, subject: %q}, share: %v}\n", DaemonAccount, s, share)
		}
		for _, s := range g.JetStream {
			if d := inDomain(domain, s); d != s {
				fmt.Fprintf(&b, "      {service: {account: %s, subject: %q}, to: %q}\n", DaemonAccount, s, d)
			}
		}
		for _, p := range g.Proxied {
			local := strings.ReplaceAll(p.Local, "{user}", u.Name)
			for _, l := range unique([]string{local, inDomain(domain, local)}) {
				fmt.Fprintf(&b, "      {service: {account: %s, subject: %q}, to: %q, share: true}\n", DaemonAccount,
					strings.ReplaceAll(p.Daemon, "{user}", u.Name), l)
			}
		}
		for _, s := range g.Streams {
			fmt.Fprintf(&b, "      {stream: {account: %s, subject: %q}}\n", DaemonAccount, s)
		}
		b.WriteString("    ]\n  }\n")
	}
	b.WriteString("}\n")
	return b.String(), nil
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func unique(ss []string) []string {
	slices.Sort(ss)
	return slices.Compact(ss)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// inDomain is a $JS.API subject as a client of domain names it; other subjects as they are.
func inDomain(domain, subject string) string {
	if rest, ok := strings.CutPrefix(subject, "$JS.API."); ok && domain != "" {
		return "$JS." + domain + ".API." + rest
	}
	return subject
}
