package mcpserver

import (
	"context"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/cenkalti/backoff/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/client"
)

// Dial connects to the daemon. The connection it makes should reconnect by itself, for ever:
// the server keeps the first client it gets, and a daemon that restarts finds it again.
type Dial func(context.Context) (*client.Client, error)

// startDaemon is what an agent is told while the daemon is away: a person starts it.
const startDaemon = "Start the daemon: axbus serve (or make run in a checkout of axbus). " +
	"This server connects by itself once it is up: call the tool again then."

// refused are the codes of a dial the daemon answered and refused (credentials it does not
// know, flags that do not go together): no daemon to start, but a configuration to fix.
var refused = map[model.Code]bool{model.CodePermissionDenied: true, model.CodeBadRequest: true}

// reconfigure is what an agent is told when the daemon refuses the connection.
const reconfigure = "Check the server and credentials this MCP server is configured with (in the MCP client's configuration); " +
	"it dials again by itself."

// Connect dials until the daemon answers (every 100 ms at first, then every second), keeps the
// client and returns; it returns ctx's error if ctx ends first. Meanwhile the tools answer
// UNAVAILABLE, saying why and how to start the daemon; or, when it refused the connection, its
// code (PERMISSION_DENIED) and that the configuration is to check.
func (s *Server) Connect(ctx context.Context, dial Dial) error {
	every := backoff.NewExponentialBackOff(backoff.WithInitialInterval(100*time.Millisecond),
		backoff.WithMaxInterval(time.Second), backoff.WithMaxElapsedTime(0))
	var asked []chan struct{} // calls waiting for this dial's outcome
	for first := true; ; first = false {
		c, err := dial(ctx)
		if err == nil {
			s.client = c
			s.up.Store(true) // after client: whoever sees up reads it set
		} else {
			s.lastErr.Store(model.AsError(err))
		}
		for _, done := range asked {
			close(done)
		}
		asked = nil
		if first {
			close(s.tried)
		}
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every.NextBackOff()):
		case done := <-s.redial:
			asked = append(asked, done)
		}
	}
}

// Bounds of what a call waits for before it says the daemon is away.
const (
	// firstDial bounds how long a call made as the server starts waits for its first dial.
	firstDial = 5 * time.Second
	// settle bounds how long a call waits for a dial it asked for, or for a connection that is
	// down to come back: a daemon just started or restarted answers that call.
	settle = 2 * time.Second
)

// away is why the daemon cannot be asked now (nil when it can): never reached yet, or its
// connection down until it reconnects. A call made before the first dial ended waits for it:
// a client's first call comes right after it started the server. A later call first has the
// daemon dialled at once, or waits a moment for the connection to come back: the call that
// follows the daemon's start is answered.
func (s *Server) away(ctx context.Context) *model.Error {
	select {
	case <-s.tried:
	case <-ctx.Done():
	case <-time.After(firstDial):
	}
	if !s.up.Load() {
		s.dialNow(ctx)
	}
	if !s.up.Load() {
		why := "not reached yet"
		if last := s.lastErr.Load(); last != nil {
			if refused[last.Code] {
				return model.Errorf(last.Code, reconfigure, "the axbus daemon refuses this server's connection: %s", last.Message)
			}
			why = last.Message
		}
		return model.Errorf(model.CodeUnavailable, startDaemon, "the axbus daemon does not answer: %s", why)
	}
	if !s.reconnected(ctx) {
		return model.Errorf(model.CodeUnavailable, startDaemon,
			"the connection to the axbus daemon is down (it stopped or restarts); reconnecting")
	}
	return nil
}

// dialNow has the dialler dial at once, between its tries, and waits for the outcome (at most
// settle); it returns at once when a dial is under way.
func (s *Server) dialNow(ctx context.Context) {
	done := make(chan struct{})
	select {
	case s.redial <- done:
	default:
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	case <-time.After(settle):
	}
}

// reconnected says the connection is up, waiting at most settle for it when it is down.
func (s *Server) reconnected(ctx context.Context) bool {
	nc := s.client.Conn()
	if nc.IsConnected() {
		return true
	}
	changed := nc.StatusChanged(nats.CONNECTED, nats.CLOSED)
	defer nc.RemoveStatusListener(changed)
	if nc.IsConnected() { // back before the listener was
		return true
	}
	select {
	case <-changed:
	case <-ctx.Done():
	case <-time.After(settle):
	}
	return nc.IsConnected()
}

// whileAway answers the calls that need the daemon with UNAVAILABLE while it is away: a tool's
// as a tool error, a resource's read as the request's error.
func (s *Server) whileAway(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/call":
			if away := s.away(ctx); away != nil {
				return toolError(away), nil
			}
		case "resources/read":
			if away := s.away(ctx); away != nil {
				return nil, away
			}
		}
		return next(ctx, method, req)
	}
}

// subscribeWhenUp subscribes to a resource (by resources/subscribe or subscriptions/listen)
// while the daemon answers: the subscription is the connection's, kept across reconnections.
func (s *Server) subscribeWhenUp(ctx context.Context, req *mcp.SubscribeRequest) error {
	if away := s.away(ctx); away != nil {
		return away
	}
	return s.events.subscribe(ctx, req)
}
