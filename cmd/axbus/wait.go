package main

import (
	"context"
	"io"
	"time"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/observer"
)

// runWait waits for a condition and exits 0 only when it was met.
func runWait(ctx context.Context, args []string, out io.Writer) error {
	var c clientFlags
	var a appFlags
	var req bus.WaitRequest
	var recheck time.Duration
	fs := newFlags("wait", "CONDITION [--app NAME | --pid PID] [--window W] [--timeout 5s] [flags]\n"+
		`  e.g. wait 'text:"Saved"' --app notes, wait 'window:title~Report' (the whole desktop)`)
	c.register(fs)
	a.register(fs)
	fs.StringVar(&req.Window, "window", "", "only this window (id or title)")
	fs.StringVar(&req.Scope, "scope", "", "only this element's subtree: SNAPSHOT:ELEMENT")
	fs.StringVar(&req.Snapshot, "snapshot", "", "the snapshot that elem_N ids in the condition come from")
	fs.DurationVar(&recheck, "recheck", 0, "re-read the app whole this often, for changes no notification announced (default 1s)")
	if err := parseInterleaved(fs, args, 1); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	timeout, given := c.conditionTimeout(fs)
	if !given {
		timeout = 5 * time.Second
	}
	req.Expr, req.AppTarget = fs.Arg(0), a.target
	req.TimeoutMS, req.RecheckMS = int(timeout.Milliseconds()), int(recheck.Milliseconds())
	client, closeConn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	r, err := client.Wait(ctx, req)
	if err != nil {
		return err
	}
	if err := printJSON(out, r); err != nil {
		return err
	}
	switch r.Outcome {
	case bus.WaitMet:
		return nil
	case bus.WaitTimeout:
		return quiet(observer.Errorf(observer.CodeTimeout, "Wait longer (--timeout) or check the condition.", "the condition did not hold within %v", timeout))
	case bus.WaitAppGone:
		return quiet(observer.Errorf(observer.CodeAppGone, "Start the app and wait again.", "the app exited"))
	}
	if r.Error != nil {
		return r.Error
	}
	return observer.Errorf(observer.CodeInternal, "See the daemon's log.", "the wait ended with %s", r.Outcome)
}
