package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
	"github.com/axbus/axbus/schemas"
	"github.com/nats-io/nats.go"
)

// Service is the micro service "axbus": one endpoint per operation under <prefix>.<host>.api.
// Each request is checked against its schema before any handler runs, then handled on its own
// goroutine, so a slow inspection or a long wait never holds up other requests.
type Service struct {
	nc      *nats.Conn
	obs     *observer.Observer
	subj    Subjects
	pub     *Publisher
	snap    *SnapPublisher
	poller  *live.Poller
	stream  string
	listen  *api.ListenStatus
	log     *slog.Logger
	started time.Time
	jsproxy *JetStreamProxy
	relay   *Relay
	// admission admits requests by identity (api.MaxInFlight and its limits) and cancels
	// those whose connection closed.
	admission *admission
	// connected says whether the server's connection conn is still there (nil: always).
	connected func(conn uint64) bool
	// private has the server keep subjects to their owners (nil: nothing is kept so).
	private func(map[string]string) error
	// identities names the user of a client account (nil: every request is the daemon's own).
	identities func(account string) (api.Identity, bool)
	audit      *Audit // records every action; nil records none
	recognizer observer.TextRecognizer
	shots      shotStore // screenshots' PNGs, fetched part by part
	heavyGate  heavyGate // screenshots, text recognition, reads and scoped inspections (api.MaxHeavy)
	svc        *microService
	// turns orders each client's actions (api.Turn); acts is where every action endpoint's
	// requests arrive, in the order the server delivered them.
	turns *turns
	acts  chan *nats.Msg

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	ops    Operations
}

// Operations are what other packages do for the service's endpoints; an endpoint whose
// operation is missing answers NOT_SUPPORTED.
type Operations struct {
	// Wait waits for a condition (package waiters) and calls armed once it listens.
	Wait func(ctx context.Context, r api.WaitRequest, armed func()) (*api.WaitResult, error)
	// Act does one action of api.Actions (package commands).
	Act func(ctx context.Context, action string, r api.ActionRequest) (*api.ActionReply, error)
	// Ledger switches web accessibility on and off for agents; nil when the backend cannot.
	Ledger *observer.Ledger
	// Creds adds, lists and removes client identities (the server's accounts).
	Creds func(ctx context.Context, r api.CredsRequest) (*api.CredsReply, error)
	// Agents lists the identities connected now with their connections (the server's view).
	Agents func(ctx context.Context) ([]api.Agent, error)
	// LeasesOf names the leases an identity holds, for presence; nil shows none.
	LeasesOf func(name string) []string
	// Lease acquires, renews, releases and lists leases (package commands).
	Lease func(ctx context.Context, r api.LeaseRequest) (*api.LeaseReply, error)
	// Window moves, resizes, closes, raises or minimizes a window (package commands).
	Window func(ctx context.Context, r api.WindowRequest) (*api.WindowReply, error)
	// Launch and Quit start and end apps; Clipboard reads and writes its text (package commands).
	Launch    func(ctx context.Context, r api.LaunchRequest) (*api.LaunchReply, error)
	Quit      func(ctx context.Context, r api.QuitRequest) (*api.QuitReply, error)
	Clipboard func(ctx context.Context, r api.ClipboardRequest) (*api.ClipboardReply, error)
}

// ServiceOption configures a Service.
type ServiceOption func(*Service)

// WithPublisher reports the publisher's counters in status.
func WithPublisher(p *Publisher) ServiceOption { return func(s *Service) { s.pub = p } }

// WithSnapPublisher reports the snapshot diff publisher's counters in status.
func WithSnapPublisher(p *SnapPublisher) ServiceOption { return func(s *Service) { s.snap = p } }

// WithPoller reports which apps the poller polls, and why none, in status.
func WithPoller(p *live.Poller) ServiceOption { return func(s *Service) { s.poller = p } }

// WithStream names the JetStream stream of the host's events in status.
func WithStream(name string) ServiceOption { return func(s *Service) { s.stream = name } }

// WithListen reports how clients reach the daemon in status.
func WithListen(l api.ListenStatus) ServiceOption { return func(s *Service) { s.listen = &l } }

// WithRecognizer recognises text in screenshots and inspections that ask for it (ocr); without
// one their recognized_text says why there is none.
func WithRecognizer(r observer.TextRecognizer) ServiceOption {
	return func(s *Service) { s.recognizer = r }
}

// WithLogger sets the service's logger.
func WithLogger(l *slog.Logger) ServiceOption { return func(s *Service) { s.log = l } }

// WithIdentities names the identity of the account a request came from (the server's
// Nats-Request-Info header), for role checks, fairness and the audit trail.
func WithIdentities(fn func(account string) (api.Identity, bool)) ServiceOption {
	return func(s *Service) { s.identities = fn }
}

// WithConnected tells the service whether a connection of the server is still there, so that
// the requests of one gone are cancelled at once, their slots given back.
func WithConnected(fn func(conn uint64) bool) ServiceOption {
	return func(s *Service) { s.connected = fn }
}

// WithPrivate lets the service have the server refuse a subject to all but its owner: each
// durable consumer's pulls (JetStreamProxy).
func WithPrivate(fn func(map[string]string) error) ServiceOption {
	return func(s *Service) { s.private = fn }
}

// WithOperations serves waits, actions and the web-accessibility ledger.
func WithOperations(ops Operations) ServiceOption { return func(s *Service) { s.ops = ops } }

// NewService registers the service on nc.
func NewService(nc *nats.Conn, obs *observer.Observer, subj Subjects, opts ...ServiceOption) (*Service, error) {
	s := &Service{nc: nc, obs: obs, subj: subj, log: slog.New(slog.DiscardHandler), started: time.Now(),
		admission: newAdmission(), turns: newTurns(), acts: make(chan *nats.Msg, api.MaxInFlight)}
	for _, o := range opts {
		o(s)
	}
	if err := schemas.Check(); err != nil {
		return nil, err
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.svc = newMicroService(nc, api.ServiceName, api.Version,
		"The accessibility tree of one desktop: apps, windows, inspections, waits and actions.",
		map[string]string{"host": subj.Host, "backend": obs.Backend().Platform(), "api": subj.API()})
	handlers := s.handlers()
	actHandlers := map[string]nats.MsgHandler{} // by subject
	for _, ep := range api.Endpoints {
		meta := map[string]string{
			"description":    ep.Description,
			"request_schema": schemas.ID(ep.Name + ".request"),
			"reply_schema":   schemas.ID(ep.Name + ".reply"),
			"error_schema":   schemas.ID("error"),
		}
		var stats *microEndpoint
		handle := s.wrap(ep, handlers[ep.Name], func() *microEndpoint { return stats })
		var err error
		subscribe := func(subject, queue string) (*nats.Subscription, error) {
			return nc.QueueSubscribe(subject, queue, handle)
		}
		if ep.Kind == api.Act { // one channel for them all: their order of arrival is kept
			actHandlers[subj.Endpoint(ep.Name)] = handle
			subscribe = func(subject, queue string) (*nats.Subscription, error) {
				return nc.ChanQueueSubscribe(subject, queue, s.acts)
			}
		}
		if stats, err = s.svc.addEndpoint(ep.Name, subj.Endpoint(ep.Name), meta, subscribe); err != nil {
			_ = s.svc.stop()
			s.cancel()
			return nil, err
		}
	}
	if s.connected != nil {
		s.wg.Add(1)
		go func() { defer s.wg.Done(); s.admission.sweep(s.ctx, s.connected) }()
	}
	s.wg.Add(1)
	go func() { // the action requests, in order of arrival: each takes its turn here
		defer s.wg.Done()
		for {
			select {
			case m := <-s.acts:
				actHandlers[m.Sub.Subject](m)
			case <-s.ctx.Done():
				return
			}
		}
	}()
	if err := s.svc.start(); err != nil {
		_ = s.svc.stop()
		s.cancel()
		return nil, err
	}
	var err error
	if s.jsproxy, err = StartJetStreamProxy(nc, subj, s.log, s.identities, s.private); err == nil {
		s.relay, err = StartRelay(nc, subj)
	}
	if err != nil {
		_ = s.svc.stop()
		s.cancel()
		return nil, err
	}
	return s, nil
}

// Stop stops taking requests, cancels those in flight and waits for their handlers.
func (s *Service) Stop() error {
	err := errors.Join(s.relay.Stop(), s.jsproxy.Stop(), s.svc.stop())
	s.cancel()
	s.wg.Wait()
	return err
}

// wrap runs an endpoint's handler on its own goroutine with a deadline, and replies with its
// result or an error envelope; the endpoint's stats count the request once its reply is sent.
func (s *Service) wrap(ep api.Endpoint, handle handler, stats func() *microEndpoint) nats.MsgHandler {
	return func(req *nats.Msg) {
		start := time.Now()
		reply, data := req.Reply, req.Data
		interim := req.Header.Get(api.HeaderInterim) != ""
		done := func(result any, err error) {
			s.respond(reply, ep.Name, result, err)
			msg := ""
			if err != nil {
				msg = observer.AsError(err).Message
			}
			s.svc.done(stats(), time.Since(start), msg)
		}
		if s.delivered(req) {
			return // a stored message JetStream delivered here: no request at all
		}
		who, err := s.identify(req.Header)
		if err == nil && !ep.Kind.May(who.Role) {
			err = observer.Errorf(observer.CodePermissionDenied, "Ask an admin for credentials of a role that may (axbus creds add).",
				"%s (role %s) may not call %s", who.Name, who.Role, ep.Name)
		}
		if err != nil {
			done(nil, err)
			return
		}
		ctx, cancel := context.WithTimeout(api.WithIdentity(s.ctx, who), ep.Timeout)
		ticket, err := s.admission.take(who, cancel)
		if err != nil {
			cancel()
			done(nil, err)
			return
		}
		var turn *turn
		if ep.Kind == api.Act && who.Conn != 0 { // the daemon's own requests keep no order
			turn = s.turns.take(who.Conn)
		}
		s.wg.Add(1)
		go func() {
			defer func() { s.admission.give(ticket); cancel(); s.wg.Done() }()
			if turn != nil {
				defer turn.Done()
				ctx = api.WithTurn(ctx, turn)
			}
			if interim {
				ctx = context.WithValue(ctx, interimKey{}, func(v any) { s.interim(reply, v) })
			}
			if wait := s.admission.pace(who); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					done(nil, observer.Errorf(observer.CodeBusy, fmt.Sprintf("Send fewer requests at once: an identity's requests start at most %d a second past a burst of %d.", api.RequestRate, api.RequestBurst),
						"%s's request waited its turn (%d a second) past its deadline", who.Name, api.RequestRate))
					return
				}
			}
			done(handle(ctx, data))
		}()
	}
}

// interimKey keys the function that sends an interim reply, in a handler's context.
type interimKey struct{}

// sendInterim sends v as an interim reply when the requester asked for one (api.HeaderInterim);
// it does nothing otherwise.
func sendInterim(ctx context.Context, v any) {
	if send, ok := ctx.Value(interimKey{}).(func(any)); ok {
		send(v)
	}
}

func (s *Service) interim(subject string, v any) {
	data, err := json.Marshal(v)
	if err != nil || subject == "" {
		return
	}
	msg := &nats.Msg{Subject: subject, Data: data, Header: nats.Header{api.HeaderInterim: []string{"armed"}}}
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
