package embedded

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/nats-io/nats-server/v2/server"
)

// WithWebSocket opens NATS's WebSocket listener on hostport (port 0: a free one) for the
// browser's clients: the console's page. Only users made for it (User.Web) connect there, and
// they nowhere else; a browser's upgrade is taken only from origins (the console's own). It
// listens on loopback only, unless WithTLS gives it the client port's certificate.
func WithWebSocket(hostport string, origins ...string) Option {
	return func(c *config) { c.webSocket, c.webOrigins = hostport, origins }
}

// webSocketOptions is the WebSocket listener's part of the server's options.
func webSocketOptions(c config, stls *serverTLS) (server.WebsocketOpts, error) {
	host, portText, err := net.SplitHostPort(c.webSocket)
	if err != nil {
		return server.WebsocketOpts{}, fmt.Errorf("websocket listen address %q: %w", c.webSocket, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return server.WebsocketOpts{}, fmt.Errorf("websocket listen address %q: the port is a number up to 65535", c.webSocket)
	}
	ctx, cancel := context.WithTimeout(context.Background(), resolveTimeout)
	defer cancel()
	loopback, err := isLoopbackHost(ctx, host)
	if err != nil {
		return server.WebsocketOpts{}, err
	}
	if !loopback && stls == nil {
		return server.WebsocketOpts{}, &ExposedListenError{Addr: c.webSocket}
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	ws := server.WebsocketOpts{Host: host, Port: port, NoTLS: stls == nil, AllowedOrigins: c.webOrigins}
	if stls != nil {
		ws.TLSConfig = stls.config
	}
	return ws, nil
}

// WebSocketURL is the WebSocket listener's URL (ws:// or wss://), or "" without one.
func (s *Server) WebSocketURL() string {
	if s.cfg.webSocket == "" {
		return ""
	}
	return s.ns.WebsocketURL()
}
