package bus

import (
	"context"
	"encoding/json"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/text"
	"github.com/nats-io/nats.go"
)

// handler answers one request: a value to encode, or an *Encoded reply, sent as it is.
type handler func(ctx context.Context, data []byte) (any, error)

// typed adapts a typed handler: the body is checked against "<endpoint>.request" and decoded
// into Req before fn runs.
func typed[Req any](endpoint string, fn func(ctx context.Context, req Req) (any, error)) handler {
	return func(ctx context.Context, data []byte) (any, error) {
		var req Req
		if err := DecodeRequest(endpoint, data, &req); err != nil {
			return nil, err
		}
		return fn(ctx, req)
	}
}

// handlers has one handler for every endpoint of api.Endpoints: the one place where the
// service's operations are tied to their subjects.
func (s *Service) handlers() map[string]handler {
	h := map[string]handler{
		"apps":              typed("apps", s.apps),
		"windows":           typed("windows", s.windows),
		"inspect":           typed("inspect", s.inspect),
		"read":              typed("read", s.read),
		"snapshot":          typed("snapshot", s.snapshot),
		"screenshot":        typed("screenshot", s.screenshot),
		"screenshot_part":   typed("screenshot_part", s.screenshotPart),
		"status":            typed("status", func(context.Context, api.StatusRequest) (any, error) { return s.status(), nil }),
		"wait":              typed("wait", s.wait),
		"web_accessibility": typed("web_accessibility", s.webAccessibility),
		"creds":             typed("creds", served(s.ops.Creds, "identities")),
		"agents":            typed("agents", s.agents),
		"lease":             typed("lease", served(s.ops.Lease, "leases")),
		"window":            typed("window", served(s.ops.Window, "window changes")),
		"launch":            typed("launch", served(s.ops.Launch, "launches")),
		"quit":              typed("quit", served(s.ops.Quit, "quits")),
		"clipboard":         typed("clipboard", served(s.ops.Clipboard, "clipboards")),
	}
	for _, action := range api.Actions {
		h[action] = typed(action, func(ctx context.Context, r api.ActionRequest) (any, error) { return s.act(ctx, action, r) })
	}
	s.audited(h) // last: every action endpoint's handler records its calls
	return h
}

func (s *Service) apps(ctx context.Context, _ api.AppsRequest) (any, error) {
	apps, err := s.obs.Apps(ctx)
	if err != nil {
		return nil, err
	}
	if apps == nil {
		apps = []observer.App{}
	}
	return api.AppsReply{Apps: apps}, nil
}

func (s *Service) windows(ctx context.Context, r api.WindowsRequest) (any, error) {
	app, wins, err := s.obs.Windows(ctx, r.Query())
	if err != nil {
		return nil, err
	}
	if wins == nil {
		wins = []observer.Window{}
	}
	return api.WindowsReply{App: app.Ref(), Windows: wins}, nil
}

// inspect lists a window; a scoped inspection, which walks the whole window with the wide
// budget, is heavy work. Text recognition (ocr) reads pixels: not a monitor's (api.Pixels).
func (s *Service) inspect(ctx context.Context, r api.InspectRequest) (any, error) {
	scope, err := optionalScope(r.Scope)
	if err != nil {
		return nil, err
	}
	if who := api.IdentityOf(ctx); r.OCR && !api.Pixels.May(who.Role) {
		return nil, observer.Errorf(observer.CodePermissionDenied, "Inspect without ocr, or ask an admin for an agent's credentials.",
			"%s (role %s) may not read the screen's pixels (ocr)", who.Name, who.Role)
	}
	inspect := func() (any, error) {
		insp, err := s.obs.Inspect(ctx, observer.InspectRequest{App: r.Query(), Window: r.Window, Scope: scope})
		if err == nil && r.OCR {
			insp.RecognizedText = s.recognizeWindow(ctx, insp)
		}
		return encodeListing(insp, err)
	}
	if scope == nil {
		return inspect()
	}
	return s.heavy(ctx, walkCost(observer.WideBudget()), inspect)
}

// read walks a window for its text with the whole budget: heavy work.
func (s *Service) read(ctx context.Context, r api.ReadRequest) (any, error) {
	scope, err := optionalScope(r.Scope)
	if err != nil {
		return nil, err
	}
	return s.heavy(ctx, walkCost(observer.WholeBudget()), func() (any, error) {
		return text.Read(ctx, s.obs, text.Request{App: r.Query(), Window: r.Window, Scope: scope, Limit: r.Limit, All: r.All})
	})
}

// snapshot lists a stored snapshot of the requester's (an admin's: anyone's).
func (s *Service) snapshot(ctx context.Context, r api.SnapshotRequest) (any, error) {
	snap, err := s.obs.Store().GetFor(ctx, r.SnapshotID)
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
}

func (s *Service) status() api.StatusReply {
	r := api.StatusReply{Host: s.subj.Host, Version: api.Version, Backend: s.obs.Backend().Platform(), Started: s.started,
		Stream: s.stream, Listen: s.listen}
	if s.pub != nil {
		r.Events = s.pub.Stats()
	}
	if s.snap != nil {
		r.Snaps = snapStatus(s.snap, s.poller, s.subj)
	}
	r.Snapshots.Count, r.Snapshots.Bytes = s.obs.Store().Stats()
	r.Admission = s.admission.status()
	r.Heavy = s.heavyGate.status()
	if s.stream != "" {
		r.History = &api.HistoryStatus{Events: s.streamStatus(s.stream), Audit: s.streamStatus(s.subj.AuditStreamName())}
	}
	return r
}

// streamStatus is what stream holds against its limits, as JetStream says (its name alone when
// JetStream does not answer).
func (s *Service) streamStatus(stream string) api.StreamStatus {
	st := api.StreamStatus{Name: stream}
	reply, err := s.nc.Request("$JS.API.STREAM.INFO."+stream, nil, 500*time.Millisecond)
	if err != nil {
		return st
	}
	var info struct {
		Config struct {
			MaxBytes int64         `json:"max_bytes"`
			MaxAge   time.Duration `json:"max_age"`
		} `json:"config"`
		State struct {
			Msgs     uint64 `json:"messages"`
			Bytes    uint64 `json:"bytes"`
			FirstSeq uint64 `json:"first_seq"`
			LastSeq  uint64 `json:"last_seq"`
		} `json:"state"`
	}
	if json.Unmarshal(reply.Data, &info) != nil {
		return st
	}
	st.Messages, st.Bytes, st.FirstSeq, st.LastSeq = info.State.Msgs, info.State.Bytes, info.State.FirstSeq, info.State.LastSeq
	st.MaxBytes, st.MaxAgeSec = info.Config.MaxBytes, int64(info.Config.MaxAge/time.Second)
	if st.FirstSeq > 0 {
		st.Evicted = st.FirstSeq - 1
	} else {
		st.Evicted = st.LastSeq // empty: everything it had is gone
	}
	return st
}

// wait sends "armed" as an interim reply once the wait listens, to a requester that asked, and
// the outcome with its listing's span in api.HeaderListing.
func (s *Service) wait(ctx context.Context, r api.WaitRequest) (any, error) {
	if s.ops.Wait == nil {
		return nil, notServed("waits")
	}
	if err := s.ownSnapshots(ctx, &r); err != nil {
		return nil, err
	}
	res, err := s.ops.Wait(ctx, r, func() { sendInterim(ctx, api.Armed{Armed: true}) })
	if err != nil {
		return nil, err
	}
	s.claimListing(ctx, res.Snapshot)
	data, span, err := res.Encode()
	if err != nil || span == "" {
		return &Encoded{Data: data}, err
	}
	return &Encoded{Data: data, Header: nats.Header{api.HeaderListing: []string{span}}}, nil
}

// ownSnapshots refuses a wait (or an expect) whose snapshot or scope names a snapshot of
// another identity's: its element ids would read that snapshot.
func (s *Service) ownSnapshots(ctx context.Context, r *api.WaitRequest) error {
	if r == nil {
		return nil
	}
	ids := []string{r.Snapshot}
	if scope, err := optionalScope(r.Scope); err == nil && scope != nil {
		ids = append(ids, scope.Snapshot)
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		if _, err := s.obs.Store().GetFor(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// claimListing makes the snapshot of a reply's listing, which the daemon's wait watcher made,
// the requester's: its quota keeps it, and only it (and admins) may use it.
func (s *Service) claimListing(ctx context.Context, l *api.Listing) {
	if l == nil {
		return
	}
	if insp, err := l.Inspection(); err == nil && insp != nil && insp.SnapshotID != "" {
		s.obs.Store().Claim(insp.SnapshotID, api.IdentityOf(ctx).Name)
	}
}

func (s *Service) act(ctx context.Context, action string, r api.ActionRequest) (any, error) {
	if s.ops.Act == nil {
		return nil, notServed("actions")
	}
	if err := s.ownSnapshots(ctx, r.Expect); err != nil {
		return nil, err
	}
	reply, err := s.ops.Act(ctx, action, r)
	if err != nil {
		return nil, err
	}
	if reply.Expect != nil {
		s.claimListing(ctx, reply.Expect.Snapshot)
	}
	who := api.IdentityOf(ctx)
	reply.Agent = &who
	return reply, nil
}

func (s *Service) webAccessibility(ctx context.Context, r api.WebAccessibilityRequest) (any, error) {
	l := s.ops.Ledger
	if l == nil {
		return nil, observer.Errorf(observer.CodeNotSupported,
			"Only macOS apps need it switched on; AT-SPI apps expose their web content to any client.",
			"the %s backend has no web-accessibility switch", s.obs.Backend().Platform())
	}
	app, err := s.obs.FindApp(ctx, r.Query())
	if err != nil {
		return nil, err
	}
	if r.On {
		err = l.Enable(ctx, app.PID, api.IdentityOf(ctx).Name)
	} else {
		err = l.Release(ctx, app.PID, api.IdentityOf(ctx).Name)
	}
	if err != nil {
		return nil, err
	}
	return api.WebAccessibilityReply{App: app.Ref(), Ledger: l.Entries()}, nil
}

// served is the handler of op, an operation of Operations (what names it when it is missing).
func served[Req, Reply any](op func(context.Context, Req) (*Reply, error), what string) func(context.Context, Req) (any, error) {
	return func(ctx context.Context, r Req) (any, error) {
		if op == nil {
			return nil, notServed(what)
		}
		return op(ctx, r)
	}
}

func notServed(what string) *observer.Error {
	return observer.Errorf(observer.CodeNotSupported, "Run a full daemon (axbus serve).", "this service serves no %s", what)
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

// encodeListing encodes an inspection with its own encoder, as the wait endpoint does: the
// same bytes as encoding/json, 2.7x faster.
func encodeListing(insp *observer.Inspection, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	b, err := insp.AppendJSON(nil)
	return &Encoded{Data: b}, err
}

// noDeadline bounds ctx by d when it has no deadline of its own.
func noDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}
