package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/pace"
	"github.com/axbus/axbus/observer"
	"github.com/cenkalti/backoff/v4"
)

// Chain timing (the seed's, measured on real apps): each call 3 s at most, a whole chain 10 s,
// one retry of a transient error after 100 ms.
const (
	CallTimeout   = 3 * time.Second
	ChainDeadline = api.ChainDeadline
	RetryDelay    = 100 * time.Millisecond
	// proofWait is how long a step's effect may take to show (GTK4 acts ~250 ms after DoAction).
	proofWait = 500 * time.Millisecond
	proofPoll = 25 * time.Millisecond // nothing announces a state change to the chain: it reads again
)

// run is one walk of a chain.
type run struct {
	name     string // the action
	b        observer.Backend
	chain    observer.Chain
	t        *target
	action   string // the request's named action (press)
	value    string // the request's value (set_value, type, key)
	physical bool
	deadline time.Duration
	// want is the checked state a check or uncheck wants; nil for other actions.
	want *bool
	// stop reports whether the action's effect is already proven (its expect met): a step that
	// failed but took effect must not be followed by another that would act again. It is not
	// asked before the first step: an expect that held before the action proves nothing of it.
	stop func() bool

	trace           []api.TraceStep
	skippedPhysical bool
	done            bool
	step            string
	delivered       bool
	mechanism       string
	// seen is the value the last text proof read (never a secure field's), said when unproven.
	seen *string
}

// errChainDeadline ends a chain that ran past its deadline.
var errChainDeadline = errors.New("chain deadline")

// exec walks the chain until a step works (and, where the chain asks for proof, shows its
// effect). It returns an error only when the chain ran past its deadline.
func (r *run) exec(ctx context.Context) error {
	if r.deadline == 0 {
		r.deadline = ChainDeadline
	}
	ctx, cancel := context.WithTimeoutCause(ctx, r.deadline, errChainDeadline)
	defer cancel()
	if already := r.already(); already != "" { // nothing to do: acting would undo it, or do nothing
		r.done, r.step = true, already
		return nil
	}
	for _, step := range r.chain.Steps {
		if ctx.Err() != nil {
			return model.Errorf(model.CodeTimeout, "The app is slow or stuck; check it (axbus apps) and retry.",
				"the %s chain ran past its %v deadline", r.name, r.deadline).With("trace", r.trace)
		}
		if step.Kind == observer.StepPhysical && !r.physical {
			r.note(step, "skipped", "physical input needs policy physical", 0, false)
			r.skippedPhysical = true
			continue
		}
		if r.stop != nil && len(r.trace) > 0 && r.stop() { // an earlier step failed but took effect
			return nil
		}
		start := time.Now()
		retried, err := r.tryWithRetry(ctx, step)
		elapsed := time.Since(start)
		switch {
		case err != nil:
			r.note(step, string(model.CodeOf(err)), model.AsError(err).Message, elapsed, retried)
		case !r.proven(ctx, step):
			r.delivered = true
			msg := "the call worked but the element did not change"
			if r.seen != nil {
				msg += fmt.Sprintf(" (its value reads %q)", model.Excerpt(*r.seen))
			}
			r.note(step, "no_effect", msg, elapsed, retried)
		default:
			r.delivered, r.done, r.step = true, true, step.Name()
			r.mechanism = "accessibility"
			if step.Kind == observer.StepPhysical {
				r.mechanism = "physical"
			}
			r.note(step, "ok", "", elapsed, retried)
			return nil
		}
	}
	if ctx.Err() != nil && context.Cause(ctx) == errChainDeadline {
		return model.Errorf(model.CodeTimeout, "The app is slow or stuck; check it (axbus apps) and retry.",
			"the %s chain ran past its %v deadline", r.name, r.deadline).With("trace", r.trace)
	}
	return nil
}

// already names the state the element shows before the chain that makes the action done: the
// checked state a check or uncheck wants, or the chain's proof ("already focused").
func (r *run) already() string {
	checked := r.t.node.States.Has(model.StateChecked)
	switch {
	case r.want != nil && checked == *r.want && checked:
		return "already checked"
	case r.want != nil && checked == *r.want:
		return "already unchecked"
	case r.want == nil && r.chain.Proof != 0 && r.t.node.States.Has(r.chain.Proof):
		return "already " + r.chain.Proof.String()
	}
	return ""
}

func (r *run) note(step observer.Step, result, msg string, d time.Duration, retried bool) {
	r.trace = append(r.trace, api.TraceStep{Step: step.Name(), Result: result, Message: msg,
		ElapsedMS: float64(d.Microseconds()) / 1000, Retried: retried})
}

// tryWithRetry runs a step, retrying once a transient error (the app was busy), unless the
// chain is stateful and the state already changed: a retried toggle would toggle back.
func (r *run) tryWithRetry(ctx context.Context, step observer.Step) (bool, error) {
	retried := false
	attempt := 0
	op := func() error {
		if attempt > 0 {
			retried = true
			if r.chain.Stateful && r.stateChanged(ctx) {
				return nil // it worked despite its error: do not apply it twice
			}
		}
		attempt++
		err := r.do(ctx, step, r.t.ref, r.t.node)
		if err != nil && model.CodeOf(err) != model.CodeTransient {
			return backoff.Permanent(err)
		}
		return err
	}
	policy := backoff.WithContext(backoff.WithMaxRetries(backoff.NewConstantBackOff(RetryDelay), 1), ctx)
	err := backoff.Retry(op, policy)
	var perm *backoff.PermanentError
	if errors.As(err, &perm) {
		err = perm.Err
	}
	return retried, err
}

// stateChanged reports whether the element's checked state differs from before the chain.
func (r *run) stateChanged(ctx context.Context) bool {
	n := r.b.Read(ctx, []model.NodeRef{r.t.ref})[0]
	return n.Err == nil && n.States.Has(model.StateChecked) != r.t.node.States.Has(model.StateChecked)
}

// provedItself says whether the action was delivered by a step whose chain proves its effect
// (a state flipped, a value read back): its effect is confirmed without a settle window.
func (r *run) provedItself() bool {
	return r.delivered && (r.chain.ProofText && !r.t.node.Secure || r.chain.Stateful || r.chain.Proof != 0)
}

// proven reports whether a step that worked shows its effect, where the chain asks for proof: a
// stateful chain must flip (or reach the wanted) checked state, a chain with Proof must show it.
func (r *run) proven(ctx context.Context, step observer.Step) bool {
	if r.chain.ProofText {
		return r.textProven(ctx)
	}
	if !r.chain.Stateful && r.chain.Proof == 0 {
		return true
	}
	errUnproven := errors.New("no effect yet")
	return backoff.Retry(func() error {
		n := r.b.Read(ctx, []model.NodeRef{r.t.ref})[0]
		if n.Err == nil {
			checked := n.States.Has(model.StateChecked)
			switch {
			case r.want != nil && checked == *r.want,
				r.want == nil && r.chain.Stateful && checked != r.t.node.States.Has(model.StateChecked),
				!r.chain.Stateful && n.States.Has(r.chain.Proof):
				return nil
			}
		}
		return errUnproven
	}, pace.Every(ctx, proofPoll, proofWait)) == nil
}

// textProven reports whether the element's value shows the request's text (Chain.ProofText): a
// typed text at its end, a set value as it is (a number as the same number). Whitespace at the
// ends is not compared: toolkits trim or keep it as they like.
func (r *run) textProven(ctx context.Context) bool {
	if r.t.node.Secure {
		return true
	}
	want := strings.TrimSpace(r.value)
	errUnproven := errors.New("no effect yet")
	return backoff.Retry(func() error {
		n := r.b.Read(ctx, []model.NodeRef{r.t.ref})[0]
		got := strings.TrimSpace(n.Value)
		if n.Err == nil && n.HasValue && !n.Secure {
			r.seen = &n.Value
		}
		switch {
		case n.Err != nil || !n.HasValue:
		case r.name == "type" && strings.HasSuffix(got, want),
			r.name != "type" && (got == want || sameNumber(got, want)):
			return nil
		}
		return errUnproven
	}, pace.Every(ctx, proofPoll, proofWait)) == nil
}

// sameNumber reports whether two values are the same number ("60" and "60.0").
func sameNumber(a, b string) bool {
	x, errA := model.ParseNumber(a)
	y, errB := model.ParseNumber(b)
	return errA == nil && errB == nil && x == y
}

// do runs one step on the element ref (node as read before the chain).
func (r *run) do(ctx context.Context, step observer.Step, ref model.NodeRef, node model.Node) error {
	cctx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	switch step.Kind {
	case observer.StepPerform:
		action := step.Action
		if action == observer.Dynamic {
			action = r.action
		}
		return r.b.Perform(cctx, ref, action)
	case observer.StepSetAttr:
		value := step.Value
		if value == observer.Dynamic {
			value = r.value
		}
		return r.b.SetAttribute(cctx, ref, step.Attr, value)
	case observer.StepWithFocus:
		if err := r.b.SetAttribute(cctx, ref, step.Attr, step.Value); err != nil {
			return err
		}
		return r.do(ctx, *step.Inner, ref, node)
	case observer.StepOnChildren:
		return r.onEach(ctx, *step.Inner, node.Children, step.Limit)
	case observer.StepOnAncestors:
		return r.onEach(ctx, *step.Inner, r.ancestors(ctx, node, step.Limit), step.Limit)
	case observer.StepCustom:
		return step.Run(cctx, r.b, observer.StepTarget{Ref: ref, Node: node, App: r.t.app, Value: r.value, Parent: node.Parent})
	case observer.StepPhysical:
		if step.Run != nil { // several inputs in a row
			return step.Run(cctx, r.b, observer.StepTarget{Ref: ref, Node: node, App: r.t.app, Value: r.value, Parent: node.Parent})
		}
		in := step.Input
		in.PID = r.t.app.PID
		switch in.Kind {
		case observer.InputClick:
			if node.Bounds == nil {
				return model.Errorf(model.CodeNotSupported, "The element has no bounds to click; try another action.", "no bounds to click at")
			}
			in.X, in.Y = node.Bounds.Center()
		case observer.InputType:
			in.Text = r.value
		case observer.InputKey:
			if in.Keys == "" {
				in.Keys = r.value
			}
		}
		return r.b.Input(cctx, in)
	}
	return model.Errorf(model.CodeInternal, "This is a bug in a chain's definition.", "unknown step kind %q", step.Kind)
}

// onEach runs step on each element until it works.
func (r *run) onEach(ctx context.Context, step observer.Step, refs []model.NodeRef, limit int) error {
	var last error = model.Errorf(model.CodeNotSupported, "Try another action.", "no element to try %s on", step.Name())
	for i, ref := range refs {
		if limit > 0 && i >= limit {
			break
		}
		n := r.b.Read(ctx, []model.NodeRef{ref})[0]
		if n.Err != nil {
			last = n.Err
			continue
		}
		if last = r.do(ctx, step, ref, n); last == nil {
			return nil
		}
	}
	return last
}

// ancestors lists the element's ancestors, nearest first, up to limit.
func (r *run) ancestors(ctx context.Context, node model.Node, limit int) []model.NodeRef {
	var out []model.NodeRef
	for p := node.Parent; p != "" && len(out) < max(limit, 1); {
		out = append(out, p)
		n := r.b.Read(ctx, []model.NodeRef{p})[0]
		if n.Err != nil {
			break
		}
		p = n.Parent
	}
	return out
}
