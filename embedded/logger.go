package embedded

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/nats-io/nats-server/v2/server"
)

// natsLogger adapts slog to server.Logger. Its Fatalf does not exit the
// process (the stock logger calls os.Exit(1), e.g. on a busy port); it keeps
// the first fatal message so that Start can turn it into an error.
type natsLogger struct {
	l *slog.Logger

	mu    sync.Mutex
	fatal string
}

var _ server.Logger = (*natsLogger)(nil)

func newNATSLogger(l *slog.Logger) *natsLogger {
	return &natsLogger{l: l.With("component", "nats-server")}
}

func (n *natsLogger) debugEnabled() bool {
	return n.l.Enabled(context.Background(), slog.LevelDebug)
}

// Noticef goes to debug: the server's start-up banner is noise next to the daemon's own lines.
// A slow consumer is a warning: the server cut off, or dropped messages to, a connection that
// fell behind (a monitor, an agent, or the daemon's own).
func (n *natsLogger) Noticef(format string, v ...any) {
	if strings.Contains(format, "Slow Consumer") {
		n.l.Warn(fmt.Sprintf(format, v...))
		return
	}
	n.l.Debug(fmt.Sprintf(format, v...))
}

// Warnf is a warning but for the WebSocket listener's want of TLS: it listens on loopback
// alone unless the client port's certificate is given (WithWebSocket).
func (n *natsLogger) Warnf(format string, v ...any) {
	if strings.HasPrefix(format, "Websocket not configured with TLS") {
		n.l.Debug(fmt.Sprintf(format, v...))
		return
	}
	n.l.Warn(fmt.Sprintf(format, v...))
}

func (n *natsLogger) Errorf(format string, v ...any) { n.l.Error(fmt.Sprintf(format, v...)) }
func (n *natsLogger) Debugf(format string, v ...any) { n.l.Debug(fmt.Sprintf(format, v...)) }
func (n *natsLogger) Tracef(format string, v ...any) {
	n.l.Debug(fmt.Sprintf(format, v...), "trace", true)
}

func (n *natsLogger) Fatalf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	n.mu.Lock()
	if n.fatal == "" {
		n.fatal = msg
	}
	n.mu.Unlock()
	n.l.Error(msg, "fatal", true)
}

// fatalMessage returns the first fatal message, or "".
func (n *natsLogger) fatalMessage() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.fatal
}
