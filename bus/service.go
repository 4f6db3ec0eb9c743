package bus

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/schemas"
	"github.com/nats-io/nats.go"
)

// ServiceName is the micro service's name: `nats micro ls` lists it.
const ServiceName = "axbus"

// Version is the version of the API and the binary.
const Version = "0.1.0"

// Service is the micro service "axbus": one endpoint per operation under <prefix>.<host>.api.
// Each request is checked against its schema before any handler runs, then handled on its own
// goroutine, so a slow inspection or a long wait never holds up other requests.
type Service struct {
	nc      *nats.Conn
	obs     *observer.Observer
	subj    Subjects
	pub     *Publisher
	snap    *SnapPublisher
	poller  *observer.Poller
	stream  string
	listen  *ListenStatus
	log     *slog.Logger
	started time.Time
	limit   chan struct{} // bounds the requests in flight
	svc     *microService

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	extra  []Endpoint
}

// Endpoint is one operation of the service.
type Endpoint struct {
	Name        string
	Description string
	// Timeout bounds the handler; the request's own deadline may be shorter.
	Timeout time.Duration
	// Handle decodes its request with DecodeRequest and returns the reply: a value to encode,
	// or an *Encoded reply, sent as it is.
	Handle func(ctx context.Context, data []byte) (any, error)
}

// ServiceOption configures a Service.
type ServiceOption func(*Service)

// WithPublisher reports the publisher's counters in status.
func WithPublisher(p *Publisher) ServiceOption { return func(s *Service) { s.pub = p } }

// WithSnapPublisher reports the snapshot diff publisher's counters in status.
func WithSnapPublisher(p *SnapPublisher) ServiceOption { return func(s *Service) { s.snap = p } }

// WithPoller reports which apps the poller polls, and why none, in status.
func WithPoller(p *observer.Poller) ServiceOption { return func(s *Service) { s.poller = p } }

// WithStream names the JetStream stream of the host's events in status.
func WithStream(name string) ServiceOption { return func(s *Service) { s.stream = name } }

// WithListen reports how clients reach the daemon in status.
func WithListen(l ListenStatus) ServiceOption { return func(s *Service) { s.listen = &l } }

// WithLogger sets the service's logger.
func WithLogger(l *slog.Logger) ServiceOption { return func(s *Service) { s.log = l } }

// WithEndpoints adds endpoints owned by other packages (waits, commands).
func WithEndpoints(eps ...Endpoint) ServiceOption {
	return func(s *Service) { s.extra = append(s.extra, eps...) }
}

// MaxInFlight bounds the requests handled at once; beyond it requests get UNAVAILABLE.
const MaxInFlight = 4096

// NewService registers the service on nc.
func NewService(nc *nats.Conn, obs *observer.Observer, subj Subjects, opts ...ServiceOption) (*Service, error) {
	s := &Service{nc: nc, obs: obs, subj: subj, log: slog.New(slog.DiscardHandler), started: time.Now(),
		limit: make(chan struct{}, MaxInFlight)}
	for _, o := range opts {
		o(s)
	}
	if err := schemas.Check(); err != nil {
		return nil, err
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.svc = newMicroService(nc, ServiceName, Version,
		"The accessibility tree of one desktop: apps, windows, inspections, waits and actions.",
		map[string]string{"host": subj.Host, "backend": obs.Backend().Platform(), "api": subj.API()})
	for _, ep := range append(s.endpoints(), s.extra...) {
		meta := map[string]string{
			"description":    ep.Description,
			"request_schema": schemas.ID(ep.Name + ".request"),
			"reply_schema":   schemas.ID(ep.Name + ".reply"),
			"error_schema":   schemas.ID("error"),
		}
		var stats *microEndpoint
		handle := s.wrap(ep, func() *microEndpoint { return stats })
		var err error
		if stats, err = s.svc.addEndpoint(ep.Name, subj.Endpoint(ep.Name), meta, handle); err != nil {
			_ = s.svc.stop()
			s.cancel()
			return nil, err
		}
	}
	if err := s.svc.start(); err != nil {
		_ = s.svc.stop()
		s.cancel()
		return nil, err
	}
	return s, nil
}

// Stop stops taking requests, cancels those in flight and waits for their handlers.
func (s *Service) Stop() error {
	err := s.svc.stop()
	s.cancel()
	s.wg.Wait()
	return err
}

// wrap runs an endpoint's handler on its own goroutine with a deadline, and replies with its
// result or an error envelope; the endpoint's stats count the request once its reply is sent.
func (s *Service) wrap(ep Endpoint, stats func() *microEndpoint) nats.MsgHandler {
	return func(req *nats.Msg) {
		start := time.Now()
		reply, data := req.Reply, req.Data
		interim := req.Header.Get(HeaderInterim) != ""
		done := func(result any, err error) {
			s.respond(reply, ep.Name, result, err)
			msg := ""
			if err != nil {
				msg = observer.AsError(err).Message
			}
			s.svc.done(stats(), time.Since(start), msg)
		}
		select {
		case s.limit <- struct{}{}:
		default:
			done(nil, observer.Errorf(observer.CodeUnavailable, "Retry in a moment.",
				"the daemon is handling %d requests already", MaxInFlight))
			return
		}
		s.wg.Add(1)
		go func() {
			defer func() { <-s.limit; s.wg.Done() }()
			ctx, cancel := context.WithTimeout(s.ctx, ep.Timeout)
			defer cancel()
			if interim {
				ctx = context.WithValue(ctx, interimKey{}, func(v any) { s.interim(reply, v) })
			}
			done(ep.Handle(ctx, data))
		}()
	}
}

// interimKey keys the function that sends an interim reply, in a handler's context.
type interimKey struct{}

// HeaderInterim asks an endpoint for interim replies before the final one (a wait says "armed"
// once it listens); the interim replies carry it too.
const HeaderInterim = "Axbus-Interim"

// SendInterim sends v as an interim reply when the requester asked for one; it does nothing
// otherwise. Handlers call it.
func SendInterim(ctx context.Context, v any) {
	if send, ok := ctx.Value(interimKey{}).(func(any)); ok {
		send(v)
	}
}

func (s *Service) interim(subject string, v any) {
	data, err := json.Marshal(v)
	if err != nil || subject == "" {
		return
	}
	msg := &nats.Msg{Subject: subject, Data: data, Header: nats.Header{HeaderInterim: []string{"armed"}}}
	if err := s.nc.PublishMsg(msg); err != nil {
		s.log.Warn("interim reply not sent", "err", err)
	}
}

// Encoded is a reply its handler encoded, sent as it is with its headers.
type Encoded struct {
	Data   []byte
	Header nats.Header
}

// respond publishes the reply: the result as JSON (an *Encoded one as it is), or the error
// envelope with micro's error headers.
func (s *Service) respond(subject, endpoint string, result any, err error) {
	if subject == "" {
		return // a publish without a reply subject: nobody is waiting
	}
	msg := &nats.Msg{Subject: subject}
	if err != nil {
		e := observer.AsError(err)
		if e.Code == observer.CodeInternal {
			s.log.Error("request failed", "endpoint", endpoint, "err", err)
		}
		msg.Header, msg.Data = errorReply(e)
	} else if enc, ok := result.(*Encoded); ok {
		msg.Data, msg.Header = enc.Data, enc.Header
	} else if msg.Data, err = json.Marshal(result); err != nil {
		s.log.Error("reply not encodable", "endpoint", endpoint, "err", err)
		msg.Header, msg.Data = errorReply(observer.AsError(err))
	}
	if err := s.nc.PublishMsg(msg); err != nil {
		s.log.Warn("reply not sent", "endpoint", endpoint, "err", err)
	}
}

// Handler adapts a typed handler: the body is checked against "<endpoint>.request" and decoded
// into Req before fn runs.
func Handler[Req any](endpoint string, fn func(ctx context.Context, req Req) (any, error)) func(context.Context, []byte) (any, error) {
	return func(ctx context.Context, data []byte) (any, error) {
		var req Req
		if err := DecodeRequest(endpoint, data, &req); err != nil {
			return nil, err
		}
		return fn(ctx, req)
	}
}

func (s *Service) endpoints() []Endpoint {
	return []Endpoint{
		{Name: "apps", Description: "List the running apps that expose an accessibility tree.", Timeout: 5 * time.Second,
			Handle: Handler("apps", func(ctx context.Context, _ AppsRequest) (any, error) {
				apps, err := s.obs.Apps(ctx)
				if err != nil {
					return nil, err
				}
				if apps == nil {
					apps = []observer.App{}
				}
				return AppsReply{Apps: apps}, nil
			})},
		{Name: "windows", Description: "List an app's windows, dialogs and sheets.", Timeout: 5 * time.Second,
			Handle: Handler("windows", func(ctx context.Context, r WindowsRequest) (any, error) {
				app, wins, err := s.obs.Windows(ctx, r.Query())
				if err != nil {
					return nil, err
				}
				if wins == nil {
					wins = []observer.Window{}
				}
				return WindowsReply{App: app.Ref(), Windows: wins}, nil
			})},
		{Name: "inspect", Description: "Inspect a window: list what is on screen and keep the walk as a snapshot.", Timeout: 20 * time.Second,
			Handle: Handler("inspect", func(ctx context.Context, r InspectRequest) (any, error) {
				scope, err := optionalScope(r.Scope)
				if err != nil {
					return nil, err
				}
				return encodeListing(s.obs.Inspect(ctx, observer.InspectRequest{App: r.Query(), Window: r.Window, Scope: scope}))
			})},
		{Name: "read", Description: "Read a window's or a scope's text in reading order; no snapshot, no input.", Timeout: observer.WholeBudget().Deadline + 2*time.Second,
			Handle: Handler("read", func(ctx context.Context, r ReadRequest) (any, error) {
				scope, err := optionalScope(r.Scope)
				if err != nil {
					return nil, err
				}
				return s.obs.Read(ctx, observer.ReadRequest{App: r.Query(), Window: r.Window, Scope: scope, Limit: r.Limit})
			})},
		{Name: "snapshot", Description: "List a stored snapshot again, whole or the subtree of one element; no new walk.", Timeout: time.Second,
			Handle: Handler("snapshot", func(ctx context.Context, r SnapshotRequest) (any, error) {
				snap, err := s.obs.Store().Get(r.SnapshotID)
				if err != nil {
					return nil, err
				}
				root := 0
				if r.Element != "" {
					el, err := snap.Element(r.Element)
					if err != nil {
						return nil, err
					}
					root = el.Index
				}
				return encodeListing(snap.Listing(snap.Subtree(root)), nil)
			})},
		{Name: "status", Description: "The daemon's health: backend, event counters, snapshot store, client listener.", Timeout: time.Second,
			Handle: Handler("status", func(ctx context.Context, _ StatusRequest) (any, error) {
				return s.status(), nil
			})},
	}
}

// optionalScope parses a request's scope; "" is none.
func optionalScope(s string) (*observer.Scope, error) {
	if s == "" {
		return nil, nil
	}
	scope, err := observer.ParseScope(s)
	if err != nil {
		return nil, err
	}
	return &scope, nil
}

func (s *Service) status() StatusReply {
	r := StatusReply{Host: s.subj.Host, Version: Version, Backend: s.obs.Backend().Platform(), Started: s.started, Stream: s.stream,
		Listen: s.listen}
	if s.pub != nil {
		r.Events = s.pub.Stats()
	}
	if s.snap != nil {
		r.Snaps = snapStatus(s.snap, s.poller, s.subj)
	}
	r.Snapshots.Count, r.Snapshots.Bytes = s.obs.Store().Stats()
	return r
}

// encodeListing encodes an inspection with its own encoder, as the wait endpoint does: the
// same bytes as encoding/json, 2.7x faster.
func encodeListing(insp *observer.Inspection, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	b, err := insp.AppendJSON(nil)
	return &Encoded{Data: b}, err
}
