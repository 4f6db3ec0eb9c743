package main

import (
	"context"
	"io"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/observer"
)

// actionArgs are the positional arguments of each action command after its target.
var actionArgs = map[string]string{"press": "ACTION", "set_value": "VALUE", "type": "TEXT"}

// actionCommands are the action commands: axbus click TARGET [--expect COND] [--policy physical].
func actionCommands() []command {
	var out []command
	for _, action := range bus.Actions {
		usage := "SNAPSHOT:ELEMENT"
		if a := actionArgs[action]; a != "" {
			usage += " " + a
		}
		if action == "key" {
			usage = "KEYS --app NAME | --pid PID --policy physical"
		}
		out = append(out, command{action, "act: " + action + " " + usage, func(ctx context.Context, args []string, w io.Writer) error {
			return runAction(ctx, action, usage, args, w)
		}})
	}
	return out
}

// runAction does one action; it exits 0 only when the action worked and its expect, if any,
// was met.
func runAction(ctx context.Context, action, usage string, args []string, out io.Writer) error {
	var c clientFlags
	var a appFlags
	var req bus.ActionRequest
	var expect string
	fs := newFlags(action, usage+" [--expect CONDITION [--timeout 5s]] [--policy physical] [flags]")
	c.register(fs)
	if action == "key" {
		a.register(fs)
	}
	fs.StringVar(&expect, "expect", "", `a condition checked after the action, e.g. 'text:"Saved"' (its app and window come from the target)`)
	fs.StringVar(&req.Policy, "policy", "", "physical allows synthesised pointer and keys (default headless: none)")
	want := 1
	if actionArgs[action] != "" {
		want = 2
	}
	if err := parseInterleaved(fs, args, want); err != nil {
		return err
	}
	if fs.NArg() != want {
		fs.Usage()
		return errUsage
	}
	switch action {
	case "key":
		req.Keys, req.AppTarget = fs.Arg(0), a.target
	default:
		req.Target = fs.Arg(0)
	}
	switch action {
	case "press":
		req.Action = fs.Arg(1)
	case "set_value":
		req.Value = fs.Arg(1)
	case "type":
		req.Text = fs.Arg(1)
	}
	if expect != "" {
		req.Expect = &bus.WaitRequest{Expr: expect}
		if timeout, given := c.conditionTimeout(fs); given {
			req.Expect.TimeoutMS = int(timeout.Milliseconds())
		}
	}
	client, closeConn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	r, err := client.Act(ctx, action, req)
	if err != nil {
		return err
	}
	if err := printJSON(out, r); err != nil {
		return err
	}
	if r.Expect != nil && r.Expect.Outcome != bus.WaitMet {
		return quiet(observer.Errorf(observer.CodeTimeout, "The effect did not show: check the trace, try another action or policy physical.",
			"%s was sent; its expect ended with %s", action, r.Expect.Outcome))
	}
	return nil
}
