package bus

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
)

// Consumers of the history are owned. Every consumer is made through the daemon, which names its
// owner in the consumer's metadata (ownerKey); a durable's name starts with its owner's
// ("agent1_tail"). Only its owner asks for its info or deletes it (admins reach every consumer
// directly: they list, read, ack and delete any); each identity has at most
// MaxConsumersPerIdentity, ephemeral ones counted. Pulls go straight to JetStream (the server
// lets the daemon relay no message with its ack subject, which clients read the message's place
// from): a durable's pulls the server refuses to all but its owner and admins (embedded's
// SetPrivate, set before the durable is made); an ephemeral consumer's random name is its own.
const (
	// MaxConsumersPerIdentity bounds the consumers (durable and ephemeral) an identity has on
	// each stream of the history.
	MaxConsumersPerIdentity = 16
	// MaxConsumersPerAdmin is an admin's bound: the owner's tools tail more.
	MaxConsumersPerAdmin = 64
	// MaxEphemeralIdle bounds how long an ephemeral consumer nobody pulls from is kept (the
	// server's inactive threshold): an ordered consumer left behind by a client stops counting.
	MaxEphemeralIdle = time.Minute
)

// ownerKey is the consumer metadata key that names its owner.
const ownerKey = "axbus_owner"

// JetStreamProxy makes the consumer calls clients send through the daemon (creation for every
// role; info and deletion for those not admins), refusing push consumers and what the
// identity does not own. A push consumer's delivery subject is one of the daemon's account,
// where JetStream would publish the stored events itself: on the API (requests that no identity
// vouches for) or on the live event subjects. A pull consumer (what jetstream clients, tail and
// the nats CLI make) delivers to its requester's inbox only.
type JetStreamProxy struct {
	nc         *nats.Conn
	sub        *nats.Subscription
	log        *slog.Logger
	prefix     string
	identities func(account string) (api.Identity, bool)

	create sync.Mutex // one creation at a time: the count checked is the count made
	mu     sync.Mutex
	owners map[string]string // stream/consumer -> owner, as made through the proxy or read

	// private makes the server refuse a durable's pulls to every identity but its owner (and
	// admins); durables are the pull subjects of the durables it was given, by owner. A
	// durable's name can be guessed, an ephemeral one's (a random name) cannot.
	private  func(map[string]string) error
	durables map[string]string
}

// maxOwners bounds the memo of owners; past it the memo starts over (the metadata is the truth).
const maxOwners = 4096

// StartJetStreamProxy answers on subj.JetStreamProxy()+".>"; identities names the user and role
// of a client account (nil: the account's name, no role).
// private (nil: none) makes each durable's pulls its owner's alone, from the durables the
// streams have now on.
func StartJetStreamProxy(nc *nats.Conn, subj api.Subjects, log *slog.Logger, identities func(account string) (api.Identity, bool),
	private func(map[string]string) error) (*JetStreamProxy, error) {
	p := &JetStreamProxy{nc: nc, log: log, prefix: subj.JetStreamProxy() + ".", identities: identities, owners: map[string]string{},
		private: private, durables: map[string]string{}}
	if private != nil {
		for _, stream := range []string{subj.StreamName(), subj.AuditStreamName()} {
			for _, c := range p.consumers(stream) {
				if c.Config.Durable != "" && c.Config.Metadata[ownerKey] != "" {
					p.durables[pullSubject(stream, c.Name)] = c.Config.Metadata[ownerKey]
				}
			}
		}
		if len(p.durables) > 0 {
			if err := p.privateNow(); err != nil {
				return nil, err
			}
		}
	}
	var err error
	p.sub, err = nc.Subscribe(p.prefix+">", func(m *nats.Msg) { go p.handle(m) })
	return p, err
}

// pullSubject is where a consumer's pulls go.
func pullSubject(stream, consumer string) string {
	return "$JS.API.CONSUMER.MSG.NEXT." + stream + "." + consumer
}

// setDurable records (owner "": forgets) a durable's owner and has the server enforce it.
func (p *JetStreamProxy) setDurable(stream, consumer, owner string) error {
	if p.private == nil {
		return nil
	}
	p.mu.Lock()
	if owner == "" {
		delete(p.durables, pullSubject(stream, consumer))
	} else {
		p.durables[pullSubject(stream, consumer)] = owner
	}
	p.mu.Unlock()
	return p.privateNow()
}

func (p *JetStreamProxy) privateNow() error {
	p.mu.Lock()
	durables := maps.Clone(p.durables)
	p.mu.Unlock()
	return p.private(durables)
}

// Stop stops answering.
func (p *JetStreamProxy) Stop() error { return p.sub.Unsubscribe() }

func (p *JetStreamProxy) handle(m *nats.Msg) {
	subject := "$JS." + strings.TrimPrefix(m.Subject, p.prefix)
	who, ok := p.identify(m)
	if !ok {
		p.refuse(m, 403, "axbus: the consumer call carries no identity the server vouches for")
		return
	}
	tokens := strings.Split(subject, ".")
	switch {
	case len(tokens) >= 6 && tokens[2] == "CONSUMER" && (tokens[3] == "CREATE" || tokens[3] == "DURABLE"):
		p.createConsumer(m, who, subject, tokens)
	case len(tokens) == 6 && tokens[2] == "CONSUMER" && (tokens[3] == "INFO" || tokens[3] == "DELETE"):
		if p.owned(m, who, tokens[4], tokens[5]) {
			p.forward(m, subject, func(ok bool) {
				if ok && tokens[3] == "DELETE" {
					p.setOwner(tokens[4], tokens[5], "")
					if err := p.setDurable(tokens[4], tokens[5], ""); err != nil {
						p.log.Warn("a deleted durable's pulls are still refused to others", "err", err)
					}
				}
			})
		}
	default:
		p.refuse(m, 403, "axbus: "+subject+" is not a consumer call the daemon makes for clients")
	}
}

// identify is the identity the server vouches for (Nats-Request-Info).
func (p *JetStreamProxy) identify(m *nats.Msg) (api.Identity, bool) {
	var info struct {
		Account string `json:"acc"`
	}
	if json.Unmarshal([]byte(m.Header.Get(requestInfoHeader)), &info) != nil || info.Account == "" {
		return api.Identity{}, false
	}
	if p.identities == nil {
		return api.Identity{Name: info.Account}, true
	}
	return p.identities(info.Account)
}

// owned says whether who owns the consumer (or it does not exist: JetStream says so), and
// refuses the call otherwise.
func (p *JetStreamProxy) owned(m *nats.Msg, who api.Identity, stream, consumer string) bool {
	owner, exists := p.owner(stream, consumer)
	if !exists || owner == who.Name {
		return true
	}
	p.refuse(m, 403, fmt.Sprintf("axbus: consumer %s belongs to another identity; %s reads and deletes only its own (a durable's name starts with %q)",
		consumer, who.Name, who.Name+"_"))
	return false
}

// createConsumer checks a creation (pull only, a durable named under its owner, at most the
// identity's count) and makes it with its owner in its metadata.
func (p *JetStreamProxy) createConsumer(m *nats.Msg, who api.Identity, subject string, tokens []string) {
	var req map[string]json.RawMessage
	var cfg map[string]any
	if json.Unmarshal(m.Data, &req) != nil || json.Unmarshal(req["config"], &cfg) != nil {
		p.refuse(m, 400, "axbus: the consumer request is not JSON")
		return
	}
	if s, _ := cfg["deliver_subject"].(string); s != "" {
		p.refuse(m, 403, "axbus: push consumers are refused on this stream; make a pull consumer (jetstream clients and nats consumer add --pull do)")
		return
	}
	if s, _ := cfg["deliver_group"].(string); s != "" {
		p.refuse(m, 403, "axbus: push consumers are refused on this stream; make a pull consumer (jetstream clients and nats consumer add --pull do)")
		return
	}
	stream := tokens[4]
	durable, _ := cfg["durable_name"].(string)
	name, _ := cfg["name"].(string)
	if tokens[3] == "DURABLE" { // $JS.API.CONSUMER.DURABLE.CREATE.<stream>.<name>
		if len(tokens) < 7 {
			p.refuse(m, 400, "axbus: a durable consumer needs a name")
			return
		}
		stream, durable = tokens[5], tokens[6]
	} else if len(tokens) >= 6 && tokens[5] != "" && name == "" {
		name = tokens[5] // $JS.API.CONSUMER.CREATE.<stream>.<name>[.<filter>]
	}
	if durable != "" {
		name = durable
		if !strings.HasPrefix(durable, who.Name+"_") {
			p.refuse(m, 403, fmt.Sprintf("axbus: a durable consumer's name starts with its identity's and _: call it %q, not %q",
				who.Name+"_"+durable, durable))
			return
		}
	} else {
		idle := float64(MaxEphemeralIdle)
		if t, _ := cfg["inactive_threshold"].(float64); t <= 0 || t > idle {
			cfg["inactive_threshold"] = int64(idle)
		}
	}
	p.create.Lock()
	defer p.create.Unlock()
	if name != "" {
		if owner, exists := p.owner(stream, name); exists {
			if owner != who.Name {
				p.refuse(m, 403, fmt.Sprintf("axbus: consumer %s belongs to another identity", name))
				return
			}
			name = "" // an update of its own: it counts already
		} else if n, names := p.countOwned(stream, who.Name); n >= maxConsumers(who) {
			p.refuse(m, 429, fmt.Sprintf("axbus: %s has %d consumers on %s already, the most an identity may have: delete one (nats consumer rm %s NAME): %s",
				who.Name, n, stream, stream, strings.Join(names, ", ")))
			return
		}
	} else if n, names := p.countOwned(stream, who.Name); n >= maxConsumers(who) {
		p.refuse(m, 429, fmt.Sprintf("axbus: %s has %d consumers on %s already, the most an identity may have: delete one (nats consumer rm %s NAME): %s",
			who.Name, n, stream, stream, strings.Join(names, ", ")))
		return
	}
	meta, _ := cfg["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta[ownerKey] = who.Name
	cfg["metadata"] = meta
	var err error
	if req["config"], err = json.Marshal(cfg); err == nil {
		m.Data, err = json.Marshal(req)
	}
	if err != nil {
		p.refuse(m, 400, "axbus: the consumer request is not JSON")
		return
	}
	// A new durable's pulls are its owner's before it exists: nobody else's pull can come first.
	newDurable := durable != "" && name != ""
	if newDurable {
		if err := p.setDurable(stream, durable, who.Name); err != nil {
			p.refuse(m, 503, "axbus: the durable's pulls cannot be kept its own: "+err.Error())
			return
		}
	}
	reply, ok := p.call(m, subject)
	var made struct {
		Name  string          `json:"name"`
		Error json.RawMessage `json:"error"`
	}
	if ok {
		_ = json.Unmarshal(reply.Data, &made)
	}
	if newDurable && (!ok || made.Error != nil) {
		if err := p.setDurable(stream, durable, ""); err != nil {
			p.log.Warn("a durable not made keeps its pulls refused to others", "err", err)
		}
	}
	if !ok {
		return
	}
	if made.Name != "" {
		p.setOwner(stream, made.Name, who.Name)
	}
	p.respond(m, reply)
}

// maxConsumers is the count of consumers who may have on a stream.
func maxConsumers(who api.Identity) int {
	if who.Role == api.RoleAdmin {
		return MaxConsumersPerAdmin
	}
	return MaxConsumersPerIdentity
}

// countOwned is how many consumers of stream name owns, and their names.
func (p *JetStreamProxy) countOwned(stream, name string) (int, []string) {
	var names []string
	for _, c := range p.consumers(stream) {
		if c.Config.Metadata[ownerKey] == name {
			names = append(names, c.Name)
		}
	}
	return len(names), names
}

// listedConsumer is what the proxy reads of a consumer in JetStream's listing.
type listedConsumer struct {
	Name   string `json:"name"`
	Config struct {
		Durable  string            `json:"durable_name"`
		Metadata map[string]string `json:"metadata"`
	} `json:"config"`
}

// consumers lists stream's consumers (in doubt, none: JetStream's own limits apply).
func (p *JetStreamProxy) consumers(stream string) []listedConsumer {
	var out []listedConsumer
	for offset := 0; ; {
		body, _ := json.Marshal(map[string]int{"offset": offset})
		reply, err := p.nc.Request("$JS.API.CONSUMER.LIST."+stream, body, 5*time.Second)
		if err != nil {
			return out
		}
		var page struct {
			Total     int              `json:"total"`
			Consumers []listedConsumer `json:"consumers"`
		}
		if json.Unmarshal(reply.Data, &page) != nil || len(page.Consumers) == 0 {
			return out
		}
		out = append(out, page.Consumers...)
		if offset += len(page.Consumers); offset >= page.Total {
			return out
		}
	}
}

// owner is the owner of a consumer of stream, and whether it exists (in doubt: it does, and
// has no owner).
func (p *JetStreamProxy) owner(stream, consumer string) (string, bool) {
	p.mu.Lock()
	owner, ok := p.owners[stream+"/"+consumer]
	p.mu.Unlock()
	if ok {
		return owner, true
	}
	reply, err := p.nc.Request("$JS.API.CONSUMER.INFO."+stream+"."+consumer, nil, 5*time.Second)
	if err != nil {
		return "", true
	}
	var info struct {
		Config struct {
			Metadata map[string]string `json:"metadata"`
		} `json:"config"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(reply.Data, &info) != nil {
		return "", true
	}
	if info.Error != nil {
		return "", info.Error.Code != 404
	}
	owner = info.Config.Metadata[ownerKey]
	p.setOwner(stream, consumer, owner)
	return owner, true
}

// setOwner remembers a consumer's owner ("": forgets the consumer).
func (p *JetStreamProxy) setOwner(stream, consumer, owner string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if owner == "" {
		delete(p.owners, stream+"/"+consumer)
		return
	}
	if len(p.owners) >= maxOwners {
		p.owners = map[string]string{}
	}
	p.owners[stream+"/"+consumer] = owner
}

// forward makes the call and answers with JetStream's reply; done learns whether it succeeded.
func (p *JetStreamProxy) forward(m *nats.Msg, subject string, done func(ok bool)) {
	reply, ok := p.call(m, subject)
	if !ok {
		return
	}
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(reply.Data, &r)
	done(r.Error == nil)
	p.respond(m, reply)
}

// call makes the JetStream API call m asked for, refusing m when it fails.
func (p *JetStreamProxy) call(m *nats.Msg, subject string) (*nats.Msg, bool) {
	if m.Reply == "" {
		return nil, false
	}
	reply, err := p.nc.RequestMsg(&nats.Msg{Subject: subject, Data: m.Data}, 5*time.Second)
	if err != nil {
		p.refuse(m, 503, "axbus: "+err.Error())
		return nil, false
	}
	return reply, true
}

func (p *JetStreamProxy) respond(m *nats.Msg, reply *nats.Msg) {
	if err := m.RespondMsg(&nats.Msg{Data: reply.Data, Header: reply.Header}); err != nil {
		p.log.Warn("consumer reply not sent", "err", err)
	}
}

// refuse answers as the JetStream API does, so that clients show the reason.
func (p *JetStreamProxy) refuse(m *nats.Msg, code int, description string) {
	if m.Reply == "" {
		return
	}
	body, _ := json.Marshal(map[string]any{
		"type":  "io.nats.jetstream.api.v1.consumer_create_response",
		"error": map[string]any{"code": code, "err_code": 10000 + code, "description": description},
	})
	_ = m.Respond(body)
}
