package main

import (
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

type waitCmd struct {
	Condition string `arg:"" help:"the condition, e.g. 'text:\"Saved\"', 'element:role=button,name=Save', 'window:title~Report' (axbus schema condition)."`
	appFlags
	Window   string        `placeholder:"W" help:"only this window (id or title)." group:"Target"`
	Scope    string        `placeholder:"SNAPSHOT:ELEMENT" help:"only this element's subtree." group:"Target"`
	Snapshot string        `placeholder:"ID" help:"the snapshot that eN ids in the condition come from." group:"Target"`
	For      time.Duration `hidden:"" help:"the old name of --timeout."`
	Recheck  time.Duration `help:"re-read the app whole this often, for changes no notification announced (default 1s)."`
	connFlags
}

// Run waits for the condition, up to --timeout, and exits 0 only when it was met.
func (c *waitCmd) Run(e *env) error {
	limit := c.outcomeTime(c.For, api.DefaultWaitTimeout)
	req := api.WaitRequest{Expr: c.Condition, AppTarget: c.target(), Window: c.Window, Scope: c.Scope, Snapshot: c.Snapshot,
		TimeoutMS: int(limit.Milliseconds()), RecheckMS: int(c.Recheck.Milliseconds())}
	client, closeConn, err := c.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	ctx, cancel := awaitOutcome(e.ctx, limit)
	defer cancel()
	r, err := client.Wait(ctx, req)
	if err != nil {
		return err
	}
	if err := e.print(c.JSON, r); err != nil {
		return err
	}
	return waitOutcome(r, limit)
}

// waitOutcome is the error a wait's outcome exits with: none when it was met.
func waitOutcome(r *api.WaitResult, limit time.Duration) error {
	switch r.Outcome {
	case api.WaitMet:
		return nil
	case api.WaitTimeout:
		return quiet(model.Errorf(model.CodeTimeout, "Wait longer (--timeout) or check the condition.", "the condition did not hold within %v", limit))
	case api.WaitAppGone:
		return quiet(model.Errorf(model.CodeAppGone, "Start the app and wait again.", "the app exited"))
	}
	if r.Error != nil {
		return r.Error
	}
	return model.Errorf(model.CodeInternal, "", "the wait ended with %s", r.Outcome)
}
