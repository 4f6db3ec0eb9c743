package main

import (
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// actionFlags are what every action command shares: the proof of its effect, the input policy,
// the connection.
type actionFlags struct {
	Expect string        `placeholder:"CONDITION" help:"a condition checked after the action, e.g. 'text:\"Saved\"' (its app and window come from the target)."`
	For    time.Duration `help:"how long the expect may take to hold (default 5s)."`
	Policy string        `enum:"headless,physical" default:"headless" help:"physical allows synthesised pointer and keys; headless (the default) sends none."`
	connFlags
}

type targetActionCmd struct {
	Target string `arg:"" placeholder:"SNAPSHOT:ELEMENT" help:"the element, an id from an earlier inspect or wait."`
	actionFlags
}

func (c *targetActionCmd) Run(e *env) error {
	return act(e, &c.actionFlags, api.ActionRequest{Target: c.Target})
}

type pressCmd struct {
	Target string `arg:"" placeholder:"SNAPSHOT:ELEMENT" help:"the element."`
	Action string `arg:"" help:"the action's name (activate, AXPress) or index (0), as inspect lists them."`
	actionFlags
}

func (c *pressCmd) Run(e *env) error {
	return act(e, &c.actionFlags, api.ActionRequest{Target: c.Target, Action: c.Action})
}

type setValueCmd struct {
	Target string `arg:"" placeholder:"SNAPSHOT:ELEMENT" help:"the element."`
	Value  string `arg:"" help:"the value: text, or a number for a slider or spin button."`
	actionFlags
}

func (c *setValueCmd) Run(e *env) error {
	return act(e, &c.actionFlags, api.ActionRequest{Target: c.Target, Value: c.Value})
}

type typeCmd struct {
	Target string `arg:"" placeholder:"SNAPSHOT:ELEMENT" help:"the element."`
	Text   string `arg:"" help:"the text, appended to the element's value."`
	actionFlags
}

func (c *typeCmd) Run(e *env) error {
	return act(e, &c.actionFlags, api.ActionRequest{Target: c.Target, Text: c.Text})
}

type keyCmd struct {
	Keys string `arg:"" help:"a key combination, e.g. ctrl+s, shift+Tab, Return."`
	appFlags
	actionFlags
}

func (c *keyCmd) Run(e *env) error {
	return act(e, &c.actionFlags, api.ActionRequest{Keys: c.Keys, AppTarget: c.target()})
}

// act does one action; it exits 0 only when the action worked and its expect, if any, was met.
func act(e *env, f *actionFlags, req api.ActionRequest) error {
	req.Policy = f.Policy
	if f.Expect != "" {
		req.Expect = &api.WaitRequest{Expr: f.Expect, TimeoutMS: int(f.For.Milliseconds())}
	}
	client, closeConn, err := f.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	ctx, cancel := f.replyContext(e.ctx)
	defer cancel()
	r, err := client.Act(ctx, e.command, req)
	if err != nil {
		return err
	}
	if err := e.print(f.JSON, r); err != nil {
		return err
	}
	if r.Expect != nil && r.Expect.Outcome != api.WaitMet {
		return quiet(observer.Errorf(observer.CodeTimeout, "The effect did not show: check the trace, try another action or --policy physical.",
			"%s was sent; its expect ended with %s", e.command, r.Expect.Outcome))
	}
	return nil
}
