package bus

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// The audit trail (a record of every action, published on the daemon's own subjects) and
// presence (who is connected, and the last action of each), which reads it.

// Audit publishes the record of every action and keeps each identity's last in memory.
// Records are few (one per action request), so each is published at once, in order, rather
// than queued: none is dropped.
type Audit struct {
	nc   *nats.Conn
	subj api.Subjects
	boot string
	log  *slog.Logger
	// snapshots tell a refused action's app and target from its target's snapshot.
	snapshots *observer.Store

	mu     sync.Mutex
	seq    uint64
	last   map[string]api.ActionRecord // by identity name
	failed atomic.Uint64
	// since counts each identity's records since its records were last trimmed
	// (api.AuditRecordsPerIdentity); trimming names those being trimmed now.
	since    map[string]int
	trimming map[string]bool
}

// NewAudit publishes action records on nc under boot, the daemon run's id (Publisher.Boot);
// snapshots (nil: none) fill in what a refused action's reply did not say.
func NewAudit(nc *nats.Conn, subj api.Subjects, boot string, snapshots *observer.Store, log *slog.Logger) *Audit {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Audit{nc: nc, subj: subj, boot: boot, snapshots: snapshots, log: log, last: map[string]api.ActionRecord{},
		since: map[string]int{}, trimming: map[string]bool{}}
}

// trimLocked starts a trim of name's records when AuditTrimEvery came since its last and none
// runs; called under a.mu.
func (a *Audit) trimLocked(name string) {
	if a.since[name] >= api.AuditTrimEvery && !a.trimming[name] {
		delete(a.since, name)
		a.trimming[name] = true
		go a.trim(name, false)
	}
}

// auditSettleAfter is how long after a trim a last one runs for an identity that went quiet:
// records published before a purge but stored after it (JetStream stores apart from the
// purge) escape it, and no later record would start the trim that removes them.
const auditSettleAfter = time.Second

// trim keeps the newest api.AuditRecordsPerIdentity records of identity name in the audit
// stream (a purge of its subjects that keeps them), apart from the action whose record asked for
// it: actions are never held up by it.
func (a *Audit) trim(name string, settling bool) {
	defer func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		delete(a.trimming, name)
		a.trimLocked(name) // what came while it ran
		if !a.trimming[name] && !settling {
			time.AfterFunc(auditSettleAfter, func() {
				a.mu.Lock()
				defer a.mu.Unlock()
				if !a.trimming[name] && !a.nc.IsClosed() {
					a.trimming[name] = true
					go a.trim(name, true)
				}
			})
		}
	}()
	body, _ := json.Marshal(map[string]any{"filter": a.subj.ActionsBy(name), "keep": api.AuditRecordsPerIdentity})
	reply, err := a.nc.Request("$JS.API.STREAM.PURGE."+a.subj.AuditStreamName(), body, 5*time.Second)
	var r struct {
		Error *struct {
			Description string `json:"description"`
		} `json:"error"`
	}
	if err == nil && json.Unmarshal(reply.Data, &r) == nil && r.Error != nil {
		err = errors.New(r.Error.Description)
	}
	if err != nil {
		a.log.Warn("an identity's oldest action records not trimmed", "agent", name, "err", err)
	}
}

// Publish gives r its envelope (host, boot, seq), publishes it on its action's subject and
// keeps it as its agent's last.
func (a *Audit) Publish(r api.ActionRecord) api.ActionRecord {
	app := ""
	if r.App != nil {
		app = r.App.Name
	}
	a.mu.Lock()
	defer a.mu.Unlock() // held while publishing, so that records go out in the order of seq
	a.seq++
	r.Host, r.Boot, r.Seq = a.subj.Host, a.boot, a.seq
	a.last[r.Agent.Name] = r
	data, err := json.Marshal(&r)
	if err == nil {
		err = a.nc.Publish(a.subj.Action(app, r.Action, r.Agent.Name), data)
	}
	a.since[r.Agent.Name]++
	a.trimLocked(r.Agent.Name)
	if err != nil {
		if n := a.failed.Add(1); n&(n-1) == 0 {
			a.log.Warn("action record not published", "action", r.Action, "agent", r.Agent.Name, "failed", n, "err", err)
		}
	}
	return r
}

// Last is the last action record of the identity called name in this daemon run.
func (a *Audit) Last(name string) (api.ActionRecord, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := a.last[name]
	return r, ok
}

// recorded makes an action endpoint's handler record its calls, done or refused (the server
// refuses a role's actions before any reach the daemon; those are not recorded).
func (a *Audit) recorded(action string, fn Handler) Handler {
	return func(ctx context.Context, data []byte) (any, error) {
		start := time.Now()
		result, err := fn(ctx, data)
		r := record(action, data, result, err)
		r.Time, r.Agent, r.ElapsedMS = start, api.IdentityOf(ctx), float64(time.Since(start))/float64(time.Millisecond)
		if r.Target != nil && (r.App == nil || r.Target.Role == "") {
			a.fromSnapshot(&r)
		}
		a.Publish(r)
		return result, err
	}
}

// fromSnapshot fills in from the target's snapshot what a refused action's reply did not say.
func (a *Audit) fromSnapshot(r *api.ActionRecord) {
	if a.snapshots == nil {
		return
	}
	snap, err := a.snapshots.Get(r.Target.Snapshot)
	if err != nil {
		return
	}
	if r.App == nil {
		app := snap.App
		r.App = &app
	}
	if el, err := snap.Element(r.Target.Element); err == nil && r.Target.Role == "" {
		r.Target.Role, r.Target.Name = el.Role, el.Name
	}
}

// given notes that a request had a field and drops its content, so that a value or keys never
// reach the record, not even through a copy.
type given bool

func (g *given) UnmarshalJSON(b []byte) error {
	*g = string(b) != "null"
	return nil
}

// opWord is what a request's op may be to be recorded.
var opWord = regexp.MustCompile(`^[a-z_]{1,16}$`)

// auditedRequest is what a record takes of an action's request.
type auditedRequest struct {
	Target string `json:"target"`
	App    string `json:"app"`
	PID    int    `json:"pid"`
	Policy string `json:"policy"`
	Op     string `json:"op"`
	On     *bool  `json:"on"`
	Value  given  `json:"value"`
	Text   given  `json:"text"`
	Keys   given  `json:"keys"`
}

// record is the record of one action from its request, reply and error; the envelope, agent
// and times are the caller's.
func record(action string, data []byte, result any, err error) api.ActionRecord {
	r := api.ActionRecord{Action: action}
	var req auditedRequest
	_ = json.Unmarshal(data, &req) // a request the schema refused is recorded with what it says
	// What a refused request said is kept only as far as the record's schema allows it, and an
	// app's name only in part: a record stays small whatever a client sends.
	if req.Policy == api.PolicyHeadless || req.Policy == api.PolicyPhysical {
		r.Policy = req.Policy
	}
	if opWord.MatchString(req.Op) {
		r.Op = req.Op
	}
	if req.On != nil {
		r.Op = map[bool]string{true: "on", false: "off"}[*req.On]
	}
	for _, g := range []struct {
		name string
		had  given
	}{{"value", req.Value}, {"text", req.Text}, {"keys", req.Keys}} {
		if g.had {
			r.Given = append(r.Given, g.name)
		}
	}
	if sc, err := observer.ParseScope(req.Target); err == nil {
		r.Target = &api.RecordTarget{Snapshot: sc.Snapshot, Element: sc.Element}
	}
	if req.App != "" || req.PID > 0 {
		r.App = &model.AppRef{Name: model.Excerpt(req.App), PID: max(req.PID, 0)}
	}
	if err != nil {
		r.Error = model.AsError(err).Code
		return r
	}
	r.Done = true
	switch reply := result.(type) {
	case *api.ActionReply:
		app := reply.App
		r.App = &app
		r.Done, r.Delivered, r.Step, r.Mechanism = reply.Done, reply.Delivered, reply.Step, reply.Mechanism
		if t := reply.Target; t != nil {
			r.Target = &api.RecordTarget{Snapshot: t.Snapshot, Element: t.Element, Role: t.Role, Name: t.Name}
		}
		r.Disposition = reply.Disposition
		for _, st := range reply.Trace {
			r.Trace = append(r.Trace, api.RecordStep{Step: st.Step, Result: st.Result, ElapsedMS: st.ElapsedMS})
		}
		if e := reply.Expect; e != nil {
			r.Expect = &api.RecordExpect{Outcome: e.Outcome, ElapsedMS: e.ElapsedMS}
			if tr := e.Trigger; tr != nil {
				r.Expect.Trigger = tr.Kind
				if tr.Event != "" {
					r.Expect.Trigger = string(tr.Event)
				}
			}
		}
	default: // another endpoint's reply (web_accessibility, lease): the app it names, if any
		var named struct {
			App   *model.AppRef `json:"app"`
			Lease struct {
				App *model.AppRef `json:"app"`
			} `json:"lease"`
		}
		if b, err := json.Marshal(result); err == nil && json.Unmarshal(b, &named) == nil {
			for _, app := range []*model.AppRef{named.App, named.Lease.App} {
				if app != nil && app.Name != "" {
					r.App = app
				}
			}
		}
	}
	return r
}
