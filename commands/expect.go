package commands

import (
	"context"
	"sync/atomic"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/waiters"
)

// expectation is an expect armed before its action.
type expectation struct {
	done   chan struct{}
	res    *api.WaitResult
	isMet  atomic.Bool
	cancel context.CancelFunc
}

// met reports, without waiting, whether the expect holds already.
func (x *expectation) met() bool { return x.isMet.Load() }

// result waits for the expect's outcome.
func (x *expectation) result() *api.WaitResult {
	<-x.done
	return x.res
}

// armExpect subscribes the expect before the action is sent, so that nothing the action causes
// is missed. Refusals begin with "expect: ".
func (e *Engine) armExpect(ctx context.Context, wire *api.WaitRequest, t *target) (*expectation, error) {
	if wire == nil {
		return nil, nil
	}
	req, err := waiters.FromWire(*wire)
	if err != nil {
		return nil, expectError(err)
	}
	if err := e.borrowTarget(ctx, &req, t); err != nil {
		return nil, expectError(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	x := &expectation{done: make(chan struct{}), cancel: cancel}
	armed := make(chan struct{})
	failed := make(chan error, 1)
	go func() {
		defer close(x.done)
		res, err := e.waits.Wait(wctx, req, func() { close(armed) })
		if err != nil {
			failed <- err
			x.res = &api.WaitResult{Outcome: api.WaitError, Error: model.AsError(expectError(err))}
			return
		}
		x.res = res
		x.isMet.Store(res.Outcome == api.WaitMet)
	}()
	select {
	case <-armed:
		return x, nil
	case err := <-failed:
		cancel()
		return nil, expectError(err)
	case <-x.done: // it ended before it listened (met at once, timed out, or refused)
		select {
		case err := <-failed: // sent before done closed
			cancel()
			return nil, expectError(err)
		default:
			return x, nil
		}
	}
}

// borrowTarget fills what the expect leaves out from the action's snapshot: the app; the window
// for element and text conditions; and for a window_gone without a title, the window the target
// is in (a sheet or dialog within the snapshot's window, else that window): it is the one that
// must go. Window and dialog conditions get only the app, so that a dialog opening in a new
// window is seen; an expect that names another app keeps it and borrows nothing.
func (e *Engine) borrowTarget(ctx context.Context, req *waiters.Request, t *target) error {
	if req.Condition != nil && req.Condition.ElementFree() {
		if err := aimAtTarget(req, t); err != nil {
			return err
		}
	}
	if t.snap == nil {
		if req.App.PID == 0 && req.App.Name == "" && req.Condition.NeedsElements() {
			return model.Errorf(model.CodeBadRequest,
				"Name the app of the expect (expect.app or expect.pid): an action without a snapshot has none to lend it.",
				"pid must be given")
		}
		return nil
	}
	switch {
	case req.App.PID == 0 && req.App.Name == "":
		req.App.PID = t.snap.App.PID
	case req.App.PID != t.snap.App.PID:
		return nil // another app: nothing of this snapshot applies
	}
	if req.Window == "" && req.Condition.NeedsItsWindow() {
		req.GoneWindow = e.windowOf(ctx, t)
	}
	if req.Window == "" && req.Condition.NeedsElements() {
		req.Window = t.snap.Window.ID
	}
	if req.Snapshot == "" {
		req.Snapshot = t.snap.ID // eN in the condition name elements of the action's snapshot
	}
	return nil
}

// aimAtTarget names the action's target as the element of the expect's value and state
// conditions that name none (state:checked after a check), by its id in the action's snapshot,
// which the expect then resolves its ids in.
func aimAtTarget(req *waiters.Request, t *target) error {
	const named = "Name the element: state:eN=checked or value:eN=42 with the snapshot its id comes from, or describe it (state:role=...,name=...,state=checked)."
	switch {
	case t.snap == nil || t.was == nil:
		return model.Errorf(model.CodeBadRequest, named, "%s names no element, and the action has none to lend it", req.Condition)
	case (req.App.PID != 0 || req.App.Name != "") && req.App.PID != t.snap.App.PID:
		return model.Errorf(model.CodeBadRequest, named, "%s names no element, and the expect's app is not the action's", req.Condition)
	case req.Snapshot != "" && req.Snapshot != t.snap.ID:
		return model.Errorf(model.CodeBadRequest, named+" Or leave out the expect's snapshot: the action's target is in the action's.",
			"%s names no element, and the expect's snapshot %s is not the action's %s", req.Condition, req.Snapshot, t.snap.ID)
	}
	req.Condition.AimAt(model.ElementID(t.was.Index))
	req.Snapshot = t.snap.ID
	return nil
}

// windowOf is the id of the innermost window of the app that holds the target in its snapshot:
// a sheet or dialog that is part of its parent window's tree (macOS sheets are), else the
// snapshot's window.
func (e *Engine) windowOf(ctx context.Context, t *target) string {
	_, wins, err := e.o.Windows(ctx, model.AppQuery{PID: t.snap.App.PID})
	if err != nil || t.was == nil {
		return t.snap.Window.ID
	}
	nodes := t.snap.Walk.Nodes
	for i := t.was.Index; i >= 0 && i < len(nodes); i = nodes[i].Parent {
		for _, w := range wins {
			if w.Ref != "" && w.Ref == nodes[i].Ref {
				return w.ID
			}
		}
	}
	return t.snap.Window.ID
}

// expectError prefixes a refusal of the expect.
func expectError(err error) error {
	e := *model.AsError(err)
	e.Message = "expect: " + e.Message
	return &e
}
