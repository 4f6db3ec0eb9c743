package api

import (
	"strings"
	"unicode"
)

// DefaultPrefix is the first token of every axbus subject.
const DefaultPrefix = "ax"

// Subjects builds every subject of one host, here and nowhere else:
//
//	<prefix>.<host>.evt.<app>.<type>                one normalised accessibility event
//	<prefix>.<host>.snap.<app>                      polled snapshot diffs
//	<prefix>.<host>.api.<endpoint>                  the micro service's endpoints
//	<prefix>.<host>.act.<app>.<action>.<identity>   the audit trail: one record per action call
//	<prefix>.<host>.lease.<key>                     lease changes
//	<prefix>.<host>.coord.<agent>.>                 agents' coordination messages
//	<prefix>.<host>.js.>                            the JetStream calls the daemon checks for clients
//
// PIDs, titles and element paths never go into subjects; they travel in payloads.
type Subjects struct {
	Prefix string
	Host   string // already a token
}

// NewSubjects returns the subjects of host (sanitised) under prefix ("" means DefaultPrefix).
func NewSubjects(prefix, host string) Subjects {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return Subjects{Prefix: prefix, Host: Token(host)}
}

// Event is the subject of one event of app.
func (s Subjects) Event(app, eventType string) string {
	return s.Prefix + "." + s.Host + ".evt." + Token(app) + "." + Token(eventType)
}

// Events is the subject filter for events; empty app or type match all.
func (s Subjects) Events(app, eventType string) string {
	a, t := "*", "*"
	if app != "" {
		a = Token(app)
	}
	if eventType != "" {
		t = Token(eventType)
	}
	if a == "*" && t == "*" {
		return s.AllEvents()
	}
	return s.Prefix + "." + s.Host + ".evt." + a + "." + t
}

// AllEvents matches every event of the host: what the host's stream captures.
func (s Subjects) AllEvents() string { return s.Prefix + "." + s.Host + ".evt.>" }

// AllSnapsBelow matches every app's snapshot diffs and anything ever published below them: what
// only the daemon may publish.
func (s Subjects) AllSnapsBelow() string { return s.Prefix + "." + s.Host + ".snap.>" }

// Snap is the subject of an app's polled snapshot diffs.
func (s Subjects) Snap(app string) string { return s.Prefix + "." + s.Host + ".snap." + Token(app) }

// AllSnaps matches every app's snapshot diffs.
func (s Subjects) AllSnaps() string { return s.Prefix + "." + s.Host + ".snap.*" }

// API is the subject prefix of the micro service's endpoints (no trailing dot).
func (s Subjects) API() string { return s.Prefix + "." + s.Host + ".api" }

// Endpoint is the subject of one endpoint.
func (s Subjects) Endpoint(name string) string { return s.API() + "." + name }

// Coordination is the subject prefix where agent publishes to the other agents and monitors
// (<prefix>.<host>.coord.<agent>.>; agent "*" is every agent's): the server routes an agent's
// messages only from its own name.
func (s Subjects) Coordination(agent string) string {
	return s.Prefix + "." + s.Host + ".coord." + agent + ".>"
}

// CoordinationRelay is where the daemon hears an agent's coordination messages, to publish them
// on Coordination(agent): the server maps an agent's own Coordination subjects there.
func (s Subjects) CoordinationRelay(agent string) string {
	return s.Prefix + "." + s.Host + ".relay.coord." + agent + ".>"
}

// JetStreamProxy is the subject prefix of the JetStream API calls the daemon checks for clients
// before making them (JetStreamProxy + ".CONSUMER.CREATE.<stream>...").
func (s Subjects) JetStreamProxy() string { return s.Prefix + "." + s.Host + ".js" }

// StreamName is the JetStream stream that keeps the host's events.
func (s Subjects) StreamName() string {
	return "AXBUS_EVT_" + strings.ToUpper(strings.ReplaceAll(s.Host, "-", "_"))
}

// AuditStreamName is the JetStream stream that keeps the host's action records, apart from its
// events so that no volume of events evicts them.
func (s Subjects) AuditStreamName() string {
	return "AXBUS_ACT_" + strings.ToUpper(strings.ReplaceAll(s.Host, "-", "_"))
}

// StreamOf is the stream that keeps what filter (a subject of the host's) matches: the audit
// stream for action records, the event stream otherwise.
func (s Subjects) StreamOf(filter string) string {
	if strings.HasPrefix(filter, s.Prefix+"."+s.Host+".act.") {
		return s.AuditStreamName()
	}
	return s.StreamName()
}

// Action is the subject of the records of an app's action by an identity.
func (s Subjects) Action(app, action, identity string) string {
	return s.Prefix + "." + s.Host + ".act." + Token(app) + "." + Token(action) + "." + Token(identity)
}

// Actions is the subject filter for action records; empty app or action match all.
func (s Subjects) Actions(app, action string) string {
	if app == "" && action == "" {
		return s.AllActions()
	}
	a, t := "*", "*"
	if app != "" {
		a = Token(app)
	}
	if action != "" {
		t = Token(action)
	}
	return s.Prefix + "." + s.Host + ".act." + a + "." + t + ".*"
}

// ActionsBy is the subject filter for the action records of one identity.
func (s Subjects) ActionsBy(identity string) string {
	return s.Prefix + "." + s.Host + ".act.*.*." + Token(identity)
}

// AllActions matches every action record of the host; the host's stream keeps them.
func (s Subjects) AllActions() string { return s.Prefix + "." + s.Host + ".act.>" }

// Flow is the subject of a replay's progress: <prefix>.<host>.flow.<run>.<event> (started,
// step, ended), published by the daemon.
func (s Subjects) Flow(run, event string) string {
	return s.Prefix + "." + s.Host + ".flow." + Token(run) + "." + event
}

// AllFlows covers every replay's progress.
func (s Subjects) AllFlows() string { return s.Prefix + "." + s.Host + ".flow.>" }

// Lease is the subject where the changes of the lease on key are published (key is already a
// dotted lease key: app.<name>, window.<id>, input, ...).
func (s Subjects) Lease(key string) string { return s.LeasePrefix() + key }

// LeasePrefix is what every lease change's subject starts with, the key following it.
func (s Subjects) LeasePrefix() string { return s.Prefix + "." + s.Host + ".lease." }

// AllLeases matches every lease change of the host.
func (s Subjects) AllLeases() string { return s.LeasePrefix() + ">" }

// ProxiedJetStream is the daemon's subject for a client's JetStream subject ($JS.API... or
// $JS.ACK...) that the daemon checks before making the call.
func (s Subjects) ProxiedJetStream(subject string) string {
	return s.JetStreamProxy() + "." + strings.TrimPrefix(subject, "$JS.")
}

// Token turns any string into one subject token: lower case, letters, digits, '-' and '_' kept,
// every other rune (dots, wildcards, spaces, controls) replaced by '_'; never empty.
func Token(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.TrimSpace(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case r == '-' || r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
