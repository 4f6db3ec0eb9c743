package commands

import (
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/waiters"
)

// Engine does actions: it resolves the target, arms the expect, walks the backend's chain,
// reads the state after, and waits for the expect. A client's actions are delivered in the order it
// sent them (api.Turn); actions on one app are done one at a time;
// actions on different apps run in parallel.
type Engine struct {
	o     *observer.Observer
	waits *waiters.Engine

	mu    sync.Mutex
	locks map[int]*sync.Mutex // by pid
	// deadline is the chain deadline (tests shorten it).
	deadline time.Duration
	// leases, when set, refuse actions on what another identity holds (WithLeases).
	leases *Leases
	// ledger switches web accessibility for agents (WithLedger); nil where no app needs it.
	ledger *observer.Ledger
	// recent is what changed lately in each app, which an action's effects leave out;
	// settlingN counts the actions watching their effects, by app pid.
	recent    recentChanges
	settlingN map[int]int
	// onDone are the listeners of actions done (OnDone), by id.
	onDone map[int]Listener
	doneID int
}

// Option configures an Engine.
type Option func(*Engine)

// WithChainDeadline replaces the 10 s chain deadline.
func WithChainDeadline(d time.Duration) Option { return func(e *Engine) { e.deadline = d } }

// New returns an engine that acts through o's backend and checks expects with waits.
func New(o *observer.Observer, waits *waiters.Engine, opts ...Option) *Engine {
	e := &Engine{o: o, waits: waits, locks: map[int]*sync.Mutex{}, deadline: ChainDeadline, settlingN: map[int]int{}, onDone: map[int]Listener{}}
	for _, opt := range opts {
		opt(e)
	}
	e.recent.start(o)
	return e
}

// lock serialises the actions on app pid.
func (e *Engine) lock(pid int) func() {
	e.mu.Lock()
	l := e.locks[pid]
	if l == nil {
		l = &sync.Mutex{}
		e.locks[pid] = l
	}
	e.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// chains are the backend's chains.
func (e *Engine) chains() observer.Chains {
	if p, ok := e.o.Backend().(observer.ChainProvider); ok {
		return p.Chains()
	}
	return nil
}

// Do does one action.
func (e *Engine) Do(ctx context.Context, action string, req api.ActionRequest) (*api.ActionReply, error) {
	chain, ok := e.chains()[action]
	if !ok {
		return nil, model.Errorf(model.CodeNotSupported, "See axbus help for the actions this platform has.",
			"no %s action on this platform", action)
	}
	physical, err := policy(req.Policy)
	if err != nil {
		return nil, err
	}
	var t *target
	if req.Locator != "" {
		t, err = e.locate(ctx, action, chain, req, physical)
	} else {
		t, err = e.targetOf(ctx, action, req)
	}
	if err != nil {
		return nil, err
	}
	// The client's earlier actions first (api.Turn), before the app's lock: an earlier action may
	// be waiting for it.
	turn := api.TurnOf(ctx)
	if turn != nil {
		if err := turn.Wait(ctx); err != nil {
			return nil, err
		}
		defer turn.Done()
	}
	unlock := e.lock(t.app.PID)
	defer unlock()
	if req.Locator == "" && t.ref != "" {
		if err := e.actionable(ctx, action, t); err != nil {
			return nil, err
		}
	}
	gate, err := e.leaseGate(ctx, action, t)
	if err != nil {
		return nil, err
	}

	reply := &api.ActionReply{Action: action, App: t.app.Ref(), Trace: []api.TraceStep{}}
	if t.ref != "" {
		info := t.info
		reply.Target = &info
	}
	value := req.Value
	switch action {
	case "type":
		value = req.Text
	case "key":
		value = req.Keys
	}
	if action == "set_value" && t.node.Role.IsNumeric() {
		if _, err := model.ParseNumber(value); err != nil {
			return nil, err // NaN and infinities are refused before any backend sees them
		}
	}
	r := &run{name: action, b: gate.backend(e.o.Backend()), chain: chain, t: t, action: req.Action, value: value,
		physical: physical, deadline: e.deadline}
	if action == "check" || action == "uncheck" {
		want := action == "check"
		r.want = &want
	}

	ex, err := e.armExpect(ctx, req.Expect, t)
	if err != nil {
		return nil, err
	}
	if ex != nil {
		r.stop = ex.met
	}
	listeners, before := e.before(ctx, t)
	watch := e.watchEffects(t)
	if watch != nil {
		defer func() {
			if reply.Disposition == "" { // an error: the watch ends all the same
				watch.end(false)
			}
		}()
	}
	chainErr := r.exec(ctx)
	if turn != nil {
		turn.Done() // delivered: the client's next action may go while this one's expect waits
	}
	refused := gate.end() // the input lease lasts the chain, not the expect
	reply.Done, reply.Step, reply.Delivered, reply.Mechanism = r.done, r.step, r.delivered, r.mechanism
	if r.trace != nil {
		reply.Trace = r.trace
	}
	if chainErr != nil {
		if ex != nil {
			ex.cancel()
		}
		return nil, chainErr
	}
	if !r.done && refused != nil {
		if ex != nil {
			ex.cancel()
		}
		return nil, model.AsError(refused).With("trace", r.trace)
	}
	settled := false
	if r.done && ex == nil && watch != nil && !r.provedItself() {
		watch.settle(ctx)
		settled = true
	}
	if r.done {
		reply.PostState = e.postState(ctx, action, t, settled)
	}
	if ex != nil {
		reply.Expect = ex.result()
	}
	var events []model.Event
	if watch != nil && (r.done || ex != nil) {
		reply.Disposition, reply.Effects, events = watch.end(r.provedItself() || expectChanged(reply.Expect))
	}
	if r.done {
		e.announce(ctx, listeners, before, action, req, reply, t, events)
	}
	if ex != nil {
		return reply, nil
	}
	if !r.done {
		suggestion := chain.Suggestion
		if r.skippedPhysical {
			suggestion = "Only physical input is left to try: retry with policy physical (--policy physical). " + suggestion
		}
		return nil, model.Errorf(model.CodeActionFailed, suggestion, "no step of the %s chain worked", action).
			With("trace", r.trace)
	}
	return reply, nil
}

func policy(p string) (bool, error) {
	switch p {
	case "", api.PolicyHeadless:
		return false, nil
	case api.PolicyPhysical:
		return true, nil
	}
	return false, model.Errorf(model.CodeBadRequest, `Use policy "headless" (the default) or "physical".`, "unknown policy %q", p)
}

// targetOf resolves the request's target: an element of a snapshot, or, for key, an app. It has
// the chain's deadline: an app that does not answer is given up like one that does not act.
func (e *Engine) targetOf(ctx context.Context, action string, req api.ActionRequest) (*target, error) {
	ctx, cancel := context.WithTimeout(ctx, e.deadline)
	defer cancel()
	if req.Target == "" {
		if action != "key" {
			return nil, model.Errorf(model.CodeBadRequest, "Give the element as target (SNAPSHOT:ELEMENT from an inspect) or as locator (role=button,name=Save).",
				"%s needs a target", action)
		}
		app, err := e.o.FindApp(ctx, req.Query())
		if err != nil {
			return nil, err
		}
		return &target{app: app}, nil
	}
	scope, err := observer.ParseScope(req.Target)
	if err != nil {
		return nil, err
	}
	return e.resolve(ctx, scope)
}

// postState reads the element after actions whose effect shows in it; unless their effects were
// settled, it waits a little for those whose effect comes a moment later and that no proof has
// seen yet (a toggle's chain saw the state flip already).
func (e *Engine) postState(ctx context.Context, action string, t *target, settled bool) *api.PostState {
	switch action {
	case "click", "type", "press":
		if !settled {
			time.Sleep(50 * time.Millisecond)
		}
	case "toggle", "check", "uncheck", "set_value", "expand", "collapse", "select", "focus":
	default:
		return nil
	}
	if t.ref == "" {
		return nil
	}
	n := e.o.Backend().Read(ctx, []model.NodeRef{t.ref})[0]
	if n.Err != nil {
		return nil // it went away: the action may well have closed it
	}
	ps := &api.PostState{States: n.States}
	if n.HasValue && !n.Secure {
		v := n.Value
		ps.Value = &v
	}
	return ps
}

// expectChanged says an expect proved the action: it did not hold when the action began and
// held after (met by an event or a re-read, not at once), whatever events the toolkit told
// (GTK4 tells few: a recheck met it).
func expectChanged(x *api.WaitResult) bool {
	return x != nil && x.Outcome == api.WaitMet && x.Trigger != nil && x.Trigger.Kind != "initial"
}
