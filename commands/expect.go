package commands

import (
	"context"
	"sync/atomic"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/waiters"
)

// expectation is an expect armed before its action.
type expectation struct {
	done   chan struct{}
	res    *bus.WaitResult
	isMet  atomic.Bool
	cancel context.CancelFunc
}

// met reports, without waiting, whether the expect holds already.
func (x *expectation) met() bool { return x.isMet.Load() }

// result waits for the expect's outcome.
func (x *expectation) result() *bus.WaitResult {
	<-x.done
	return x.res
}

// armExpect subscribes the expect before the action is sent, so that nothing the action causes
// is missed. Its missing app and window come from the target's snapshot: element conditions get
// the window, window and dialog conditions only the app, so that a dialog opening in a new window
// is seen; an expect that names another app keeps it. Refusals begin with "expect: ".
func (e *Engine) armExpect(ctx context.Context, wire *bus.WaitRequest, t *target) (*expectation, error) {
	if wire == nil {
		return nil, nil
	}
	req, err := waiters.FromWire(*wire)
	if err != nil {
		return nil, expectError(err)
	}
	if req.App.PID == 0 && req.App.Name == "" {
		switch {
		case t.snap != nil:
			req.App.PID = t.snap.App.PID
			if req.Window == "" && req.Condition.NeedsElements() {
				req.Window = t.snap.Window.ID
			}
			if req.Snapshot == "" {
				req.Snapshot = t.snap.ID // elem_N in the condition name elements of the action's snapshot
			}
		case req.Condition.NeedsElements():
			return nil, expectError(observer.Errorf(observer.CodeBadRequest,
				"Name the app of the expect (expect.app or expect.pid): an action without a snapshot has none to lend it.",
				"pid must be given"))
		}
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
			x.res = &bus.WaitResult{Outcome: bus.WaitError, Error: observer.AsError(expectError(err))}
			return
		}
		x.res = res
		x.isMet.Store(res.Outcome == bus.WaitMet)
	}()
	select {
	case <-armed:
		return x, nil
	case err := <-failed:
		cancel()
		return nil, expectError(err)
	case <-x.done: // it ended before it listened (met at once, or timed out)
		return x, nil
	}
}

// expectError prefixes a refusal of the expect.
func expectError(err error) error {
	e := *observer.AsError(err)
	e.Message = "expect: " + e.Message
	return &e
}
