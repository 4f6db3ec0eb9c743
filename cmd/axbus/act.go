package main

import (
	"regexp"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// actionFlags are what every action command shares: the proof of its effect, the input policy,
// the connection.
type actionFlags struct {
	Expect string        `placeholder:"CONDITION" help:"a condition checked after the action, e.g. 'text:\"Saved\"', or of the target itself 'state:checked', 'value:\"42\"' (its app and window come from the target)."`
	For    time.Duration `hidden:"" help:"the old name of --timeout."`
	Policy string        `enum:"headless,physical" default:"headless" help:"physical allows synthesised pointer and keys; headless (the default) sends none."`
	connFlags
}

// elementHelp is what an action's element argument may be.
const elementHelp = "the element: SNAPSHOT:ELEMENT (an id from an inspect or wait), or a locator such as 'role=button,name=Save' (with --app) that the action waits to be actionable."

// locatorFlags scope a locator: the app it looks in and, optionally, one window of it.
type locatorFlags struct {
	appFlags
	Window string `placeholder:"W" help:"with a locator: the window (id or title) to look in; default all the app's." group:"Target"`
}

type targetActionCmd struct {
	Element string `arg:"" placeholder:"ELEMENT" help:"${element_help}"`
	locatorFlags
	actionFlags
}

func (c *targetActionCmd) Run(e *env) error {
	return act(e, &c.actionFlags, c.element(c.Element), api.ActionRequest{})
}

type pressCmd struct {
	Element string `arg:"" placeholder:"ELEMENT" help:"${element_help}"`
	Action  string `arg:"" help:"the action's name (activate, AXPress) or index (0), as inspect lists them."`
	locatorFlags
	actionFlags
}

func (c *pressCmd) Run(e *env) error {
	return act(e, &c.actionFlags, c.element(c.Element), api.ActionRequest{Action: c.Action})
}

type setValueCmd struct {
	Element string `arg:"" placeholder:"ELEMENT" help:"${element_help}"`
	Value   string `arg:"" help:"the value: text, or a number for a slider or spin button."`
	locatorFlags
	actionFlags
}

func (c *setValueCmd) Run(e *env) error {
	return act(e, &c.actionFlags, c.element(c.Element), api.ActionRequest{Value: c.Value})
}

type typeCmd struct {
	Element string `arg:"" placeholder:"ELEMENT" help:"${element_help}"`
	Text    string `arg:"" help:"the text, appended to the element's value."`
	locatorFlags
	actionFlags
}

func (c *typeCmd) Run(e *env) error {
	return act(e, &c.actionFlags, c.element(c.Element), api.ActionRequest{Text: c.Text})
}

// elementRef matches an id from a snapshot; anything else is a locator.
var elementRef = regexp.MustCompile(`^s_[0-9a-f]+:e(0|[1-9][0-9]*)$`)

// element names the element of a request: by id, or by locator in the flags' scope.
func (f locatorFlags) element(arg string) api.ActionRequest {
	if elementRef.MatchString(arg) {
		return api.ActionRequest{Target: arg, AppTarget: f.target(), Window: f.Window}
	}
	return api.ActionRequest{Locator: arg, AppTarget: f.target(), Window: f.Window}
}

type keyCmd struct {
	Keys string `arg:"" help:"a key combination, e.g. ctrl+s, shift+Tab, Return."`
	appFlags
	actionFlags
}

func (c *keyCmd) Run(e *env) error {
	return act(e, &c.actionFlags, api.ActionRequest{AppTarget: c.target()}, api.ActionRequest{Keys: c.Keys})
}

// act does one action on el with what req gives; it exits 0 only when the action worked and its
// expect, if any, was met. --timeout is how long each wait of the action may take: a locator's
// element to become actionable, the expect to hold; the reply is awaited for both, the chain's
// deadline between them, and the margin.
func act(e *env, f *actionFlags, el, req api.ActionRequest) error {
	req.Target, req.Locator, req.AppTarget, req.Window = el.Target, el.Locator, el.AppTarget, el.Window
	req.Policy = f.Policy
	limit := f.outcomeTime(f.For, api.DefaultWaitTimeout)
	outcome := api.ChainDeadline
	if req.Locator != "" {
		req.TimeoutMS = int(limit.Milliseconds())
		outcome += limit
	}
	if f.Expect != "" {
		req.Expect = &api.WaitRequest{Expr: f.Expect, TimeoutMS: int(limit.Milliseconds())}
		outcome += limit
	}
	client, closeConn, err := f.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	ctx, cancel := awaitOutcome(e.ctx, outcome)
	defer cancel()
	r, err := client.Act(ctx, e.command, req)
	if err != nil {
		return err
	}
	if err := e.print(f.JSON, r); err != nil {
		return err
	}
	if r.Expect != nil && r.Expect.Outcome != api.WaitMet {
		return quiet(model.Errorf(model.CodeTimeout, "The effect did not show: check the trace, try another action or --policy physical.",
			"%s was sent; its expect ended with %s", e.command, r.Expect.Outcome))
	}
	return nil
}
