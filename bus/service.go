package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/schemas"
	"github.com/nats-io/nats.go"
)

// Service is the micro service "axbus": one endpoint per operation under <prefix>.<host>.api,
// each given its handler (Route). Each request is checked against its schema before any
// handler runs, then handled on its own goroutine, so a slow inspection or a long wait never
// holds up other requests.
type Service struct {
	nc   *nats.Conn
	subj api.Subjects
	log  *slog.Logger
	cfg  Config

	jsproxy *JetStreamProxy
	relay   *Relay
	// admission admits requests by identity (api.MaxInFlight and its limits) and cancels
	// those whose connection closed.
	admission *admission
	svc       *microService
	served    map[string]Handler // every endpoint's handler, set by Serve (Call)
	// turns orders each client's actions (api.Turn); acts is where every action endpoint's
	// requests arrive, in the order the server delivered them.
	turns *turns
	acts  chan *nats.Msg

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// stopping, once Stop began, keeps requests still being delivered from starting handlers
	// (wg must not grow while Stop waits on it).
	stopMu   sync.Mutex
	stopping bool
}

// Call runs endpoint's handler in this process for a request of ctx's identity, as a request
// on its subject would (its body checked and decoded, an action recorded by the audit trail),
// without the way through the server, and decodes its reply into reply: how a replay's steps are
// done. The call keeps no turn and sends no interim reply: its caller has its own.
func (s *Service) Call(ctx context.Context, endpoint string, req, reply any) error {
	h := s.served[endpoint]
	if h == nil {
		return model.Errorf(model.CodeNotSupported, "See axbus help for the endpoints.", "no endpoint %q", endpoint)
	}
	data, err := json.Marshal(req)
	if err != nil {
		return model.Errorf(model.CodeBadRequest, "Pass a JSON-encodable request.", "%v", err)
	}
	ctx = context.WithValue(api.WithTurn(ctx, nil), interimKey{}, func(any) {})
	result, err := h(ctx, data)
	if err != nil {
		return err
	}
	if enc, ok := result.(*Encoded); ok {
		if w, ok := reply.(*api.WaitResult); ok {
			return api.DecodeWaitResult(enc.Data, enc.Header.Get(api.HeaderListing), w)
		}
		return json.Unmarshal(enc.Data, reply)
	}
	if data, err = json.Marshal(result); err != nil {
		return err
	}
	return json.Unmarshal(data, reply)
}

// Config is what a Service needs beside its handlers.
type Config struct {
	Subjects api.Subjects
	// Backend names the desktop's backend in the service's metadata.
	Backend string
	Logger  *slog.Logger
	// Identities names the user of a client account (the server's Nats-Request-Info header),
	// for role checks, fairness and the audit trail; nil: every request is the daemon's own.
	Identities func(account string) (api.Identity, bool)
	// Connected tells whether a connection of the server is still there, so that the requests
	// of one gone are cancelled at once, their slots given back; nil: always.
	Connected func(conn uint64) bool
	// Private has the server refuse a subject to all but its owner: each durable consumer's
	// pulls (JetStreamProxy); nil: nothing is kept so.
	Private func(map[string]string) error
	// Audit records every action endpoint's calls; nil records none.
	Audit *Audit
}

// NewService makes the service on nc; Serve gives it its handlers and starts it. An endpoint of
// api.Endpoints without a handler answers NOT_SUPPORTED.
func NewService(nc *nats.Conn, cfg Config) (*Service, error) {
	s := &Service{nc: nc, subj: cfg.Subjects, log: cfg.Logger, cfg: cfg,
		admission: newAdmission(), turns: newTurns(), acts: make(chan *nats.Msg, api.MaxInFlight)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if err := schemas.Check(); err != nil {
		return nil, err
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s, nil
}

// Serve subscribes the endpoints, each to its handler of routes, and starts answering: the
// requests may come at once, so whatever the handlers use of the service (Admission) is there
// before. Serve is called once.
func (s *Service) Serve(routes []Route) error {
	nc, cfg := s.nc, s.cfg
	handlers, err := s.handlers(routes)
	if err != nil {
		return err
	}
	s.served = handlers
	s.svc = newMicroService(nc, api.ServiceName, api.Version,
		"The accessibility tree of one desktop: apps, windows, inspections, waits and actions.",
		map[string]string{"host": s.subj.Host, "backend": cfg.Backend, "api": s.subj.API()})
	actHandlers := map[string]nats.MsgHandler{} // by subject
	for _, ep := range statusLast(api.Endpoints) {
		meta := map[string]string{
			"description":    ep.Description,
			"request_schema": schemas.ID(ep.Name + ".request"),
			"reply_schema":   schemas.ID(ep.Name + ".reply"),
			"error_schema":   schemas.ID("error"),
		}
		// The handler has its endpoint's stats before it can take a request: requests come the
		// moment it subscribes (a client asking status in a loop while the service starts).
		subscribe := func(stats *microEndpoint, subject, queue string) (*nats.Subscription, error) {
			return nc.QueueSubscribe(subject, queue, s.wrap(ep, handlers[ep.Name], stats))
		}
		if ep.Kind == api.Act { // one channel for them all: their order of arrival is kept
			subscribe = func(stats *microEndpoint, subject, queue string) (*nats.Subscription, error) {
				actHandlers[subject] = s.wrap(ep, handlers[ep.Name], stats)
				return nc.ChanQueueSubscribe(subject, queue, s.acts)
			}
		}
		if err = s.svc.addEndpoint(ep.Name, s.subj.Endpoint(ep.Name), meta, subscribe); err != nil {
			return s.unserve(err)
		}
	}
	if cfg.Connected != nil {
		s.wg.Add(1)
		go func() { defer s.wg.Done(); s.admission.sweep(s.ctx, cfg.Connected) }()
	}
	s.wg.Add(1)
	go func() { defer s.wg.Done(); s.watchOverdue(s.ctx) }()
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
		return s.unserve(err)
	}
	if s.jsproxy, err = StartJetStreamProxy(nc, s.subj, s.log, cfg.Identities, cfg.Private); err == nil {
		s.relay, err = StartRelay(nc, s.subj)
	}
	if err != nil {
		return s.unserve(err)
	}
	return nil
}

// watchOverdue is the daemon's watchdog: every 10 s it counts the requests stuck past their
// deadline (admission.overdue) and, when there are, logs every goroutine's stack, at most once
// in 10 minutes: what a person needs to find the hang.
func (s *Service) watchOverdue(ctx context.Context) {
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	var logged time.Time
	for {
		select {
		case now := <-tick.C:
			if n := s.admission.overdue(now); n > 0 && now.Sub(logged) > 10*time.Minute {
				logged = now
				buf := make([]byte, 1<<20)
				buf = buf[:runtime.Stack(buf, true)]
				s.log.Error("requests stuck past their deadline: every goroutine's stack follows", "overdue", n, "stacks", string(buf))
			}
		case <-ctx.Done():
			return
		}
	}
}

// statusLast is the endpoints with status subscribed last: the server takes a connection's
// subscriptions in order, so a daemon that answers status answers every endpoint. A client tells
// a role's limit from a missing endpoint by status answering (client.refused); a daemon still
// starting must not look like a refusal.
func statusLast(eps []api.Endpoint) []api.Endpoint {
	out := make([]api.Endpoint, 0, len(eps))
	var status []api.Endpoint
	for _, ep := range eps {
		if ep.Name == "status" {
			status = append(status, ep)
		} else {
			out = append(out, ep)
		}
	}
	return append(out, status...)
}

// Admission is what status reports of the requests admitted now.
func (s *Service) Admission() *api.AdmissionStatus { return s.admission.status() }

// Stop stops taking requests, cancels those in flight and waits for their handlers.
func (s *Service) Stop() error {
	var errs []error
	if s.relay != nil {
		errs = append(errs, s.relay.Stop())
	}
	if s.jsproxy != nil {
		errs = append(errs, s.jsproxy.Stop())
	}
	if s.svc != nil {
		errs = append(errs, s.svc.stop())
	}
	s.stopMu.Lock()
	s.stopping = true
	s.stopMu.Unlock()
	s.cancel()
	s.wg.Wait()
	return errors.Join(errs...)
}

// unserve undoes a Serve that failed with err.
func (s *Service) unserve(err error) error {
	_ = s.svc.stop()
	s.svc = nil
	s.cancel()
	return err
}

// wrap runs an endpoint's handler on its own goroutine with a deadline, and replies with its
// result or an error envelope; the endpoint's stats count the request once its reply is sent.
func (s *Service) wrap(ep api.Endpoint, handle Handler, stats *microEndpoint) nats.MsgHandler {
	return func(req *nats.Msg) {
		start := time.Now()
		reply, data := req.Reply, req.Data
		interim := req.Header.Get(api.HeaderInterim) != ""
		done := func(result any, err error) {
			s.respond(reply, ep.Name, result, err)
			msg := ""
			if err != nil {
				msg = model.AsError(err).Message
			}
			s.svc.done(stats, time.Since(start), msg)
		}
		if s.delivered(req) {
			return // a stored message JetStream delivered here: no request at all
		}
		who, err := s.identify(req.Header)
		if err == nil && !ep.Kind.May(who.Role) {
			err = model.Errorf(model.CodePermissionDenied, "Ask an admin for credentials of a role that may (axbus creds add).",
				"%s (role %s) may not call %s", who.Name, who.Role, ep.Name)
		}
		if err != nil {
			done(nil, err)
			return
		}
		ctx, cancel := context.WithTimeout(api.WithIdentity(s.ctx, who), ep.Timeout)
		ticket, err := s.admission.take(who, cancel, start.Add(ep.Timeout))
		if err != nil {
			cancel()
			done(nil, err)
			return
		}
		var turn *turn
		if ep.Kind == api.Act && who.Conn != 0 { // the daemon's own requests keep no order
			turn = s.turns.take(who.Conn)
		}
		handled := s.handling(func() {
			defer func() { s.admission.give(ticket); cancel() }()
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
					done(nil, model.Errorf(model.CodeBusy, fmt.Sprintf("Send fewer requests at once: an identity's requests start at most %d a second past a burst of %d.", api.RequestRate, api.RequestBurst),
						"%s's request waited its turn (%d a second) past its deadline", who.Name, api.RequestRate))
					return
				}
			}
			done(handle(ctx, data))
		})
		if !handled { // the service is stopping
			s.admission.give(ticket)
			cancel()
			if turn != nil {
				turn.Done()
			}
			done(nil, model.Errorf(model.CodeUnavailable, "Retry once the daemon is back.", "the daemon is stopping"))
		}
	}
}

// handling runs fn on a goroutine of its own, which Stop waits for; once Stop began it runs
// nothing and says so.
func (s *Service) handling(fn func()) bool {
	s.stopMu.Lock()
	defer s.stopMu.Unlock()
	if s.stopping {
		return false
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		fn()
	}()
	return true
}

// interimKey keys the function that sends an interim reply, in a handler's context.
type interimKey struct{}

// SendInterim sends v as an interim reply, from a handler, when the requester asked for one
// (api.HeaderInterim); it does nothing otherwise.
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
		e := model.AsError(err)
		if e.Code == model.CodeInternal {
			s.log.Error("request failed", "endpoint", endpoint, "err", err)
		}
		msg.Header, msg.Data = errorReply(e)
	} else if enc, ok := result.(*Encoded); ok {
		msg.Data, msg.Header = enc.Data, enc.Header
	} else if msg.Data, err = json.Marshal(result); err != nil {
		s.log.Error("reply not encodable", "endpoint", endpoint, "err", err)
		msg.Header, msg.Data = errorReply(model.AsError(err))
	}
	if err := s.nc.PublishMsg(msg); err != nil {
		s.log.Warn("reply not sent", "endpoint", endpoint, "err", err)
	}
}
