package commands

import (
	"context"
	"slices"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/waiters"
	"github.com/axbus/axbus/waiters/condition"
)

// locate waits, by subscription, for the element the request's locator names to be actionable
// for action, and resolves it like an id of the snapshot that holds it.
func (e *Engine) locate(ctx context.Context, action string, chain observer.Chain, req api.ActionRequest, physical bool) (*target, error) {
	if req.Target != "" {
		return nil, model.Errorf(model.CodeBadRequest, "Give the element one way: target (SNAPSHOT:ELEMENT) or locator.",
			"both target and locator are given")
	}
	l, err := condition.ParseLocator(req.Locator)
	if err != nil {
		return nil, err
	}
	if req.App == "" && req.PID == 0 {
		return nil, model.Errorf(model.CodeBadRequest, "Name the app the locator looks in (app or pid; --app).",
			"a locator needs its app")
	}
	res, err := e.waits.Wait(ctx, waiters.Request{Locator: l, Checks: actionability(action, chain, physical),
		App: req.Query(), Window: req.Window, Timeout: time.Duration(req.TimeoutMS) * time.Millisecond}, nil)
	if err != nil {
		return nil, err
	}
	if res.Outcome != waiters.Met {
		if res.Error == nil { // every unmet outcome of a locator's wait says why; this is a guard
			res.Error = model.Errorf(model.CodeTimeout, "", "no element for %s was actionable in time", l)
		}
		return nil, res.Error.With("locator", l.String()).With("waited_ms", res.ElapsedMS)
	}
	insp, err := res.Snapshot.Inspection()
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(ctx, e.deadline)
	defer cancel()
	t, err := e.resolve(rctx, observer.Scope{Snapshot: insp.SnapshotID, Element: res.Match.ID})
	if err != nil {
		return nil, err
	}
	waited := res.ElapsedMS
	t.info.Locator, t.info.WaitedMS = l.String(), &waited
	return t, nil
}

// actionability is what a locator's element must be before action acts on it: where input
// lands it must be on screen, enabled and still; where physical input may land, not covered.
// Setting a value, selecting or focusing need it enabled only; scrolling to it, nothing.
func actionability(action string, chain observer.Chain, physical bool) waiters.Checks {
	switch action {
	case "scroll_to":
		return waiters.Checks{Unique: true}
	case "set_value", "select", "focus":
		return waiters.Checks{Unique: true, Enabled: true}
	}
	return waiters.Checks{Unique: true, Visible: true, Enabled: true, Stable: true,
		Uncovered: physical && slices.ContainsFunc(chain.Steps, func(s observer.Step) bool { return s.Kind == observer.StepPhysical })}
}
