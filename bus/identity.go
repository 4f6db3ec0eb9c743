package bus

import (
	"encoding/json"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
)

// requestInfoHeader is where the server says who sent a request that crossed into the daemon's
// account through a service import shared with it. The server writes it over whatever the
// client sent; a request of the daemon's own account has none.
const requestInfoHeader = "Nats-Request-Info"

// identify is who sent a request with header h.
func (s *Service) identify(h nats.Header) (api.Identity, error) {
	raw := h.Get(requestInfoHeader)
	if raw == "" || s.cfg.Identities == nil {
		return api.Daemon, nil
	}
	var info struct {
		Account string `json:"acc"`
		Conn    uint64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(raw), &info); err != nil || info.Account == "" {
		return api.Identity{}, model.Errorf(model.CodePermissionDenied, "", "the request carries no identity the server vouches for")
	}
	id, ok := s.cfg.Identities(info.Account)
	if !ok {
		return api.Identity{}, model.Errorf(model.CodePermissionDenied, "Ask an admin for credentials (axbus creds add).",
			"account %s is no identity of this daemon (removed?)", info.Account)
	}
	id.Conn = info.Conn
	return id, nil
}

// delivered says that m is a message JetStream delivered from a stream (its reply is an ack
// subject, or it carries the stream's headers) rather than a request: the proxy refuses push
// consumers onto the daemon's subjects, and this drops what one made before would send.
func (s *Service) delivered(m *nats.Msg) bool {
	if m.Header.Get(requestInfoHeader) != "" {
		return false // a client's request, the server vouches for it
	}
	if strings.HasPrefix(m.Reply, "$JS.ACK.") || m.Header.Get("Nats-Stream") != "" || m.Header.Get("Nats-Sequence") != "" {
		s.log.Warn("a stream delivery reached the API: dropped", "subject", m.Subject)
		return true
	}
	return false
}
