package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/waiters/condition"
)

// appFlags name an app: --app or --pid.
type appFlags struct {
	App string `placeholder:"NAME" help:"app name (exact, unique prefix or substring) or bundle id." group:"Target"`
	PID int    `help:"app pid." group:"Target"`
}

func (a appFlags) target() api.AppTarget { return api.AppTarget{App: a.App, PID: a.PID} }

// call runs one request-reply command: dial, call within --timeout, print.
func call(e *env, c *connFlags, fn func(context.Context, *client.Client) (any, error)) error {
	client, closeConn, err := c.dial(e.ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	ctx, cancel := c.replyContext(e.ctx)
	defer cancel()
	reply, err := fn(ctx, client)
	if err != nil {
		return err
	}
	return e.print(c.JSON, reply)
}

type appsCmd struct {
	connFlags
}

func (c *appsCmd) Run(e *env) error {
	if c.Host == "*" {
		return c.everyHost(e)
	}
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		apps, err := cl.Apps(ctx)
		return &api.AppsReply{Apps: apps}, err
	})
}

type windowsCmd struct {
	appFlags
	connFlags
}

func (c *windowsCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Windows(ctx, c.target())
	})
}

type inspectCmd struct {
	appFlags
	Window   string `placeholder:"W" help:"window id or title (default: the focused window)." group:"Target"`
	Scope    string `placeholder:"SNAPSHOT:ELEMENT" help:"list one element's subtree, off-screen content included (an id from an earlier inspect)." group:"Target"`
	Find     string `placeholder:"LOCATOR" help:"list only the elements a locator matches (e.g. 'role=button,name~Save'), with their ids: an inspection of the matches alone." group:"Target"`
	OCR      bool   `name:"ocr" help:"also recognise the text in a screenshot of the window (from pixels: canvases, images, remote desktops)."`
	Locators bool   `help:"give each element the locator that finds it alone in its window (the one click accepts)."`
	connFlags
}

func (c *inspectCmd) Run(e *env) error {
	var l *condition.Locator
	if c.Find != "" {
		var err error
		if l, err = condition.ParseLocator(c.Find); err != nil {
			return err
		}
	}
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		insp, err := cl.Inspect(ctx, api.InspectRequest{AppTarget: c.target(), Window: c.Window, Scope: c.Scope, OCR: c.OCR, Locators: c.Locators})
		if err != nil || l == nil {
			return insp, err
		}
		found := *insp // an inspection of the matches alone: the same reply, its ids actionable
		found.Elements = l.FindIn(insp)
		return &found, nil
	})
}

type readCmd struct {
	appFlags
	Window string `placeholder:"W" help:"window id or title (default: the focused window)." group:"Target"`
	Scope  string `placeholder:"SNAPSHOT:ELEMENT" help:"read one element's subtree (an id from an earlier inspect)." group:"Target"`
	Limit  int    `placeholder:"BYTES" help:"most bytes of text (default and maximum 96 KiB)."`
	All    bool   `help:"read hidden elements too (closed menus, hidden pages, a toolbar's overflow)."`
	Text   bool   `help:"print the text alone, not the reply."`
	connFlags
}

func (c *readCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		r, err := cl.Read(ctx, api.ReadRequest{AppTarget: c.target(), Window: c.Window, Scope: c.Scope, Limit: c.Limit, All: c.All})
		if err != nil || !c.Text {
			return r, err
		}
		if r.HiddenOmitted > 0 { // the text alone would not say that there is more
			fmt.Fprintf(e.stderr, "axbus read: %d hidden elements with text left out (closed menus, hidden pages); --all reads them\n", r.HiddenOmitted)
		}
		return rawText(r.Text), nil
	})
}

type snapshotCmd struct {
	Target string `arg:"" placeholder:"SNAPSHOT[:ELEMENT]" help:"a snapshot id, or one element of it (its subtree)."`
	connFlags
}

func (c *snapshotCmd) Run(e *env) error {
	var req api.SnapshotRequest
	req.SnapshotID, req.Element, _ = strings.Cut(c.Target, ":")
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Snapshot(ctx, req)
	})
}

type statusCmd struct {
	connFlags
}

func (c *statusCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Status(ctx)
	})
}

type webAccessibilityCmd struct {
	State string `arg:"" enum:"on,off" help:"on claims the app's web accessibility for --agent, off releases the claim."`
	appFlags
	connFlags
}

func (c *webAccessibilityCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.WebAccessibility(ctx, api.WebAccessibilityRequest{AppTarget: c.target(), On: c.State == "on"})
	})
}
