package embedded

import (
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
)

// ownConnection are the options of the daemon's in-process connection, which carries every
// endpoint's subscription: while it is away every request is refused as having no responder,
// so it comes back at once and for as long as the server runs, and says why it went (the
// server closes a connection that falls behind; nats.go drops what a lagging subscription
// cannot hold).
func ownConnection(log *slog.Logger) []nats.Option {
	return []nats.Option{
		nats.MaxReconnects(-1),
		nats.ReconnectWait(10 * time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("the daemon's own connection to its server dropped: requests are refused until it is back", "err", err)
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) { log.Warn("the daemon's own connection is back") }),
		nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
			subject := ""
			if sub != nil {
				subject = sub.Subject
			}
			log.Warn("the daemon's own connection", "subject", subject, "err", err)
		}),
	}
}
