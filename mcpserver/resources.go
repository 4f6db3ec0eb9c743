package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

// The event resources: axbus://events/{app} (an app's name as subjects spell it, or "all").
// A client that subscribes to one is sent notifications/resources/updated on its events that a
// read would show (at most one per notifyEvery: a burst is one notification). Reading it gives
// the newest recentEvents of the last minute's as the events tool pages them (its default
// exclusions, runs coalesced) in at most maxText bytes, and the cursor for the tool to go on.
const (
	eventsURIPrefix = "axbus://events/"
	notifyEvery     = 50 * time.Millisecond
	recentWindow    = time.Minute
	recentEvents    = 100
)

// eventResources holds the NATS subscriptions behind the subscribed resources.
type eventResources struct {
	s  *Server
	mu sync.Mutex
	// subs counts the MCP subscriptions of each resource and holds its NATS one.
	subs map[string]*eventSub
}

type eventSub struct {
	count   int
	nats    *nats.Subscription
	pending bool // a notification is due: the burst's first event set it
}

func newEventResources(s *Server) *eventResources {
	return &eventResources{s: s, subs: map[string]*eventSub{}}
}

func (r *eventResources) add(srv *mcp.Server) {
	srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "events", URITemplate: eventsURIPrefix + "{app}", MIMEType: "application/json",
		Description: "An app's events (its name, or all); subscribe to be notified of each new one. Reading it gives the newest 100 of the last minute " +
			"(at most 32 KiB; the events tool's default exclusions; earlier counts those left out) and the cursor from which the events tool goes on."}, r.read)
}

// appOf is the app a resource's URI names ("" for all), or false.
func appOf(uri string) (string, bool) {
	app, ok := strings.CutPrefix(uri, eventsURIPrefix)
	if !ok || app == "" || strings.ContainsAny(app, "/?#") {
		return "", false
	}
	if app == "all" {
		return "", true
	}
	return app, true
}

func (r *eventResources) read(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	app, ok := appOf(req.Params.URI)
	if !ok {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	opt, err := selection(app, "", nil)
	if err != nil {
		return nil, err
	}
	opt.Since = recentWindow
	p, err := r.s.client.RecentEvents(ctx, recentEvents, opt)
	if err != nil {
		return nil, err
	}
	body := newEventsPage(p).newest(maxText)
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(body)}}}, nil
}

func (r *eventResources) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	app, ok := appOf(uri)
	if !ok {
		return mcp.ResourceNotFoundError(uri)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if sub := r.subs[uri]; sub != nil {
		sub.count++
		return nil
	}
	sub := &eventSub{count: 1}
	opt, err := selection(app, "", nil)
	if err != nil {
		return err
	}
	ns, err := r.s.client.Conn().Subscribe(r.s.client.Subjects().Events(app, ""), func(m *nats.Msg) {
		var e api.Envelope
		if json.Unmarshal(m.Data, &e) == nil && !client.Excludes(opt.Exclude, &e) { // what a read would show
			r.updated(uri, sub)
		}
	})
	if err != nil {
		return model.Errorf(model.CodeUnavailable, "Check the connection to the daemon.", "subscribing to %s: %v", uri, err)
	}
	sub.nats = ns
	r.subs[uri] = sub
	return nil
}

func (r *eventResources) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	sub := r.subs[req.Params.URI]
	if sub == nil {
		return nil
	}
	if sub.count--; sub.count == 0 {
		_ = sub.nats.Unsubscribe()
		delete(r.subs, req.Params.URI)
	}
	return nil
}

// updated notifies the resource's subscribers of an event, once per burst.
func (r *eventResources) updated(uri string, sub *eventSub) {
	r.mu.Lock()
	if sub.pending {
		r.mu.Unlock()
		return
	}
	sub.pending = true
	r.mu.Unlock()
	time.AfterFunc(notifyEvery, func() {
		r.mu.Lock()
		sub.pending = false
		r.mu.Unlock()
		_ = r.s.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
	})
}
