package bus

import (
	"context"
	"fmt"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/schemas"
)

// Handler answers one request of an endpoint: a value to encode, or an *Encoded reply, sent as
// it is.
type Handler func(ctx context.Context, data []byte) (any, error)

// Route ties an endpoint of api.Endpoints to its handler, as micro's AddEndpoint does.
type Route struct {
	Endpoint string
	Handler  Handler
}

// Handle is the route of endpoint to fn: a request's body is checked against
// "<endpoint>.request" and decoded into Req before fn runs.
func Handle[Req any](endpoint string, fn func(ctx context.Context, req Req) (any, error)) Route {
	return Route{Endpoint: endpoint, Handler: func(ctx context.Context, data []byte) (any, error) {
		var req Req
		if err := schemas.DecodeRequest(endpoint, data, &req); err != nil {
			return nil, err
		}
		return fn(ctx, req)
	}}
}

// Replying adapts an operation that returns its typed reply to a Route's handler.
func Replying[Req, Reply any](op func(context.Context, Req) (*Reply, error)) func(context.Context, Req) (any, error) {
	return func(ctx context.Context, r Req) (any, error) { return op(ctx, r) }
}

// handlers has a handler for every endpoint of api.Endpoints: the routes' (an action
// endpoint's recorded by the audit trail), NOT_SUPPORTED for those without one. A route to an
// endpoint that does not exist, or a second route to one, is a mistake of the caller's.
func (s *Service) handlers(routes []Route) (map[string]Handler, error) {
	h := map[string]Handler{}
	for _, r := range routes {
		if _, ok := api.EndpointNamed(r.Endpoint); !ok || h[r.Endpoint] != nil {
			return nil, fmt.Errorf("a route to %q: no such endpoint, or routed twice", r.Endpoint)
		}
		h[r.Endpoint] = r.Handler
	}
	for _, ep := range api.Endpoints {
		if h[ep.Name] == nil {
			h[ep.Name] = notServed(ep.Name)
		}
		if ep.Kind == api.Act && s.cfg.Audit != nil { // refused or not served, a call is recorded
			h[ep.Name] = s.cfg.Audit.recorded(ep.Name, h[ep.Name])
		}
	}
	return h, nil
}

// notServed answers NOT_SUPPORTED for an endpoint this service has no handler for.
func notServed(endpoint string) Handler {
	return func(context.Context, []byte) (any, error) {
		return nil, model.Errorf(model.CodeNotSupported, "Run a full daemon (axbus serve).", "this service serves no %s", endpoint)
	}
}
