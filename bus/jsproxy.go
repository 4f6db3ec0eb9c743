package bus

import (
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// JetStreamProxy makes the consumer creations clients ask for on the event history, refusing
// push consumers. A push consumer's delivery subject is one of the daemon's account, where
// JetStream would publish the stored events itself: on the API (requests that no identity
// vouches for) or on the live event subjects. A pull consumer (what jetstream clients, tail
// and the nats CLI make) delivers to its requester's inbox only.
type JetStreamProxy struct {
	nc  *nats.Conn
	sub *nats.Subscription
	log *slog.Logger
}

// StartJetStreamProxy answers on subj.JetStreamProxy()+".>".
func StartJetStreamProxy(nc *nats.Conn, subj Subjects, log *slog.Logger) (*JetStreamProxy, error) {
	p := &JetStreamProxy{nc: nc, log: log}
	prefix := subj.JetStreamProxy() + "."
	var err error
	p.sub, err = nc.Subscribe(prefix+">", func(m *nats.Msg) { go p.forward(m, "$JS.API."+strings.TrimPrefix(m.Subject, prefix)) })
	return p, err
}

// Stop stops answering.
func (p *JetStreamProxy) Stop() error { return p.sub.Unsubscribe() }

func (p *JetStreamProxy) forward(m *nats.Msg, subject string) {
	if m.Reply == "" {
		return
	}
	var req struct {
		Config struct {
			DeliverSubject string `json:"deliver_subject"`
			DeliverGroup   string `json:"deliver_group"`
		} `json:"config"`
	}
	if err := json.Unmarshal(m.Data, &req); err != nil {
		p.refuse(m, 400, "axbus: the consumer request is not JSON")
		return
	}
	if req.Config.DeliverSubject != "" || req.Config.DeliverGroup != "" {
		p.refuse(m, 403, "axbus: push consumers are refused on this stream; make a pull consumer (jetstream clients and nats consumer add --pull do)")
		return
	}
	out := &nats.Msg{Subject: subject, Data: m.Data}
	reply, err := p.nc.RequestMsg(out, 5*time.Second)
	if err != nil {
		p.refuse(m, 503, "axbus: "+err.Error())
		return
	}
	if err := m.RespondMsg(&nats.Msg{Data: reply.Data, Header: reply.Header}); err != nil {
		p.log.Warn("consumer reply not sent", "err", err)
	}
}

// refuse answers as the JetStream API does, so that clients show the reason.
func (p *JetStreamProxy) refuse(m *nats.Msg, code int, description string) {
	body, _ := json.Marshal(map[string]any{
		"type":  "io.nats.jetstream.api.v1.consumer_create_response",
		"error": map[string]any{"code": code, "err_code": 10000 + code, "description": description},
	})
	_ = m.Respond(body)
}
