package flows

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/waiters/condition"
)

// Caller runs an endpoint for the identity of ctx and decodes its reply into reply, as a
// request on its subject would (bus.Service.Call): a replay's steps are its requester's
// actions, leases, audit trail and all.
type Caller func(ctx context.Context, endpoint string, req, reply any) error

// Publisher publishes a replay's progress on subject.
type Publisher func(subject string, v any)

// Runner replays flows.
type Runner struct {
	call    Caller
	publish Publisher
	subj    api.Subjects
}

// NewRunner replays flows through call, telling their progress through publish.
func NewRunner(call Caller, publish Publisher, subj api.Subjects) *Runner {
	return &Runner{call: call, publish: publish, subj: subj}
}

// Progress is what a replay publishes as it goes: started, each step, ended.
type Progress struct {
	Run     string           `json:"run"`
	Event   string           `json:"event"` // started, step, ended
	Flow    string           `json:"flow,omitempty"`
	Agent   string           `json:"agent"`
	Steps   int              `json:"steps,omitempty"`
	Step    *api.StepOutcome `json:"step,omitempty"`
	Outcome string           `json:"outcome,omitempty"`
}

// Replay runs req's flow: each step's locator waited for until actionable, its action, its
// expect; the first step that fails ends the run with its report. The whole run is one turn of
// its requester's: their next action comes after it.
func (r *Runner) Replay(ctx context.Context, req api.ReplayRequest) (*api.ReplayReply, error) {
	if err := Check(&req.Flow, req.Vars); err != nil {
		return nil, err
	}
	if turn := api.TurnOf(ctx); turn != nil {
		if err := turn.Wait(ctx); err != nil {
			return nil, err
		}
		defer turn.Done()
	}
	ctx, cancel := context.WithTimeout(ctx, api.MaxReplay)
	defer cancel()
	start := time.Now()
	reply := &api.ReplayReply{Run: runID(), Outcome: api.FlowMet, Steps: []api.StepOutcome{}}
	who := api.IdentityOf(ctx).Name
	r.publish(r.subj.Flow(reply.Run, "started"), Progress{Run: reply.Run, Event: "started", Flow: req.Flow.Name, Agent: who, Steps: len(req.Flow.Steps)})
	for i := range req.Flow.Steps {
		s, _ := Bind(req.Flow.Steps[i], req.Vars) // Check bound them all
		out, failure := r.step(ctx, i, s)
		reply.Steps = append(reply.Steps, out)
		r.publish(r.subj.Flow(reply.Run, "step"), Progress{Run: reply.Run, Event: "step", Agent: who, Step: &out})
		if failure != nil {
			reply.Outcome, reply.Failure = api.FlowFailed, failure
			break
		}
	}
	reply.ElapsedMS = ms(time.Since(start))
	r.publish(r.subj.Flow(reply.Run, "ended"), Progress{Run: reply.Run, Event: "ended", Agent: who, Outcome: reply.Outcome})
	return reply, nil
}

// step runs step i: a wait, or an action with its expect.
func (r *Runner) step(ctx context.Context, i int, s api.FlowStep) (api.StepOutcome, *api.FlowFailure) {
	start := time.Now()
	out := api.StepOutcome{Step: i + 1, Action: s.Action, Outcome: api.FlowMet}
	app := api.AppTarget{App: s.App}
	fail := func(err error, expect *api.WaitResult) (api.StepOutcome, *api.FlowFailure) {
		out.Outcome, out.ElapsedMS = api.FlowFailed, ms(time.Since(start))
		return out, r.failure(ctx, i, s, err, expect)
	}
	if slices.Contains(appSteps, s.Action) && s.Action != "key" { // a change of the app or its window, then its expect
		var err error
		switch s.Action {
		case "launch":
			err = r.call(ctx, "launch", api.LaunchRequest{Entry: s.Value, TimeoutMS: s.TimeoutMS}, &api.LaunchReply{})
		case "quit":
			err = r.call(ctx, "quit", api.QuitRequest{AppTarget: app, TimeoutMS: s.TimeoutMS}, &api.QuitReply{})
		case "window":
			req, _ := windowChange(s) // Check refused a bad one
			err = r.call(ctx, "window", req, &api.WindowReply{})
		}
		if err != nil {
			return fail(err, nil)
		}
		if s.Expect != "" {
			var res api.WaitResult
			if err := r.call(ctx, "wait", api.WaitRequest{Expr: s.Expect, AppTarget: app, Window: s.Window, TimeoutMS: s.TimeoutMS}, &res); err != nil {
				return fail(err, nil)
			}
			if res.Outcome != api.WaitMet {
				return fail(unmet(&res), &res)
			}
		}
		out.ElapsedMS = ms(time.Since(start))
		return out, nil
	}
	req := api.ActionRequest{Locator: s.Locator, AppTarget: app, Window: s.Window, TimeoutMS: s.TimeoutMS, Policy: s.Policy}
	switch s.Action {
	case "type":
		req.Text = s.Value
	case "key":
		req.Keys = s.Value
	default:
		req.Value = s.Value
	}
	if s.Expect != "" {
		req.Expect = &api.WaitRequest{Expr: s.Expect, TimeoutMS: s.TimeoutMS}
	}
	var res api.ActionReply
	if err := r.call(ctx, s.Action, req, &res); err != nil {
		return fail(err, nil)
	}
	out.Disposition = res.Disposition
	if res.Expect != nil && res.Expect.Outcome != api.WaitMet {
		return fail(unmet(res.Expect), res.Expect)
	}
	if !res.Done {
		return fail(model.Errorf(model.CodeActionFailed, "Check the step's action on the app as it is now.", "%s not done", s.Action), nil)
	}
	out.ElapsedMS = ms(time.Since(start))
	return out, nil
}

// unmet is the error of a step whose expect (or wait) did not hold.
func unmet(w *api.WaitResult) *model.Error {
	if w.Error != nil {
		return w.Error
	}
	return model.Errorf(model.CodeTimeout, "Mend the step's expect, or raise its timeout_ms, if the app now does it differently.",
		"%s: %s after %.0f ms", w.Condition, w.Outcome, w.ElapsedMS)
}

// failure is the report of a step that failed: the error, the elements most like the one its
// locator looked for, and a screenshot of the app then.
func (r *Runner) failure(ctx context.Context, i int, s api.FlowStep, err error, expect *api.WaitResult) *api.FlowFailure {
	f := &api.FlowFailure{Step: i + 1, Action: s.Action, Locator: s.Locator, Error: model.AsError(err), Expect: expect}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second) // the report, even for a run out of time
	defer cancel()
	if l, perr := condition.ParseLocator(s.Locator); perr == nil && s.Locator != "" {
		var insp model.Inspection
		if r.call(ctx, "inspect", api.InspectRequest{AppTarget: api.AppTarget{App: s.App}, Window: s.Window}, &insp) == nil {
			f.Candidates = candidates(&insp, l.Element())
		}
	}
	var shot api.ScreenshotReply
	if r.call(ctx, "screenshot", api.ScreenshotRequest{AppTarget: api.AppTarget{App: s.App}, Window: s.Window, MaxSide: 800}, &shot) == nil {
		f.Screenshot = &shot
	}
	return f
}

// maxCandidates bounds the elements a failure report offers.
const maxCandidates = 5

// candidates are the elements of insp most like what want describes: of its role, those
// whose name shares most words with its name first.
func candidates(insp *model.Inspection, want *condition.Condition) []model.Element {
	wanted := ""
	if want.Name != nil {
		wanted = want.Name.Value
	}
	type scored struct {
		el    model.Element
		score int
	}
	var all []scored
	for _, el := range insp.Elements {
		if want.Role != "" && string(el.Role) != want.Role {
			continue
		}
		all = append(all, scored{el, shared(wanted, el.Name)})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return b.score - a.score })
	out := make([]model.Element, 0, maxCandidates)
	for _, s := range all[:min(len(all), maxCandidates)] {
		out = append(out, s.el)
	}
	return out
}

// shared counts the words of a that b has, ignoring case.
func shared(a, b string) int {
	n := 0
	words := strings.Fields(strings.ToLower(b))
	for _, w := range strings.Fields(strings.ToLower(a)) {
		if slices.Contains(words, w) {
			n++
		}
	}
	return n
}

func runID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "f_" + hex.EncodeToString(b)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
