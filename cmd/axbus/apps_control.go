package main

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

type launchCmd struct {
	Command bool          `help:"the words are a program and its arguments, run without a shell (admins only)."`
	For     time.Duration `hidden:"" help:"the old name of --timeout."`
	connFlags
	// Not passthrough: axbus's own flags (-s, --nkey) are taken wherever they are, and the
	// program's flags follow "--".
	Words []string `arg:"" placeholder:"ENTRY | -- PROGRAM ARG" help:"a desktop entry's id or Name (Linux), a bundle id or app name (macOS); with --command, a program and its arguments, after -- when they have flags (axbus launch --command -s URL -- xterm -e top)."`
}

// Run launches the app and waits for it to register, up to --timeout (default 30s).
func (c *launchCmd) Run(e *env) error {
	limit := c.outcomeTime(c.For, model.DefaultLaunchWait)
	req := api.LaunchRequest{TimeoutMS: int(limit.Milliseconds())}
	switch {
	case c.Command:
		req.Command = c.Words
	case len(c.Words) == 1:
		req.Entry = c.Words[0]
	default:
		return model.Errorf(model.CodeBadRequest, "Give one entry (quoted if it has spaces); or --command -- PROGRAM ARG...",
			"launch takes one entry, got %q", c.Words)
	}
	return callWithin(e, &c.connFlags, limit, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Launch(ctx, req)
	})
}

type quitCmd struct {
	appFlags
	Force bool          `help:"end it at once (SIGKILL, forceTerminate) instead of closing its windows."`
	For   time.Duration `hidden:"" help:"the old name of --timeout."`
	connFlags
}

// Run ends the app and waits for it to end, up to --timeout (default 5s).
func (c *quitCmd) Run(e *env) error {
	limit := c.outcomeTime(c.For, model.QuitWait)
	req := api.QuitRequest{AppTarget: c.target(), Force: c.Force, TimeoutMS: int(limit.Milliseconds())}
	return callWithin(e, &c.connFlags, limit, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Quit(ctx, req)
	})
}

// activateCmd is window raise of the app's window: activating an app brings its window to the
// front with the input focus.
type activateCmd struct {
	appFlags
	Window string `placeholder:"W" help:"window id or title (default: the focused window, else the first)." group:"Target"`
	connFlags
}

func (c *activateCmd) Run(e *env) error {
	req := api.WindowRequest{AppTarget: c.target(), Window: c.Window, Op: "raise"}
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Window(ctx, req)
	})
}

type clipboardCmd struct {
	Op   string  `arg:"" enum:"get,set" help:"get (print the clipboard's text) or set (to TEXT, or standard input with -)."`
	Data *string `arg:"" optional:"" name:"text" placeholder:"TEXT" help:"set: the text; - reads it from standard input; none empties the clipboard."`
	Text bool    `help:"get: print the text alone, not the reply."`
	connFlags
}

func (c *clipboardCmd) Run(e *env) error {
	req := api.ClipboardRequest{Op: c.Op, Text: c.Data}
	if c.Op == "get" && c.Data != nil {
		return model.Errorf(model.CodeBadRequest, "Give text to clipboard set; clipboard get takes none.", "clipboard get takes no text")
	}
	if c.Data != nil && *c.Data == "-" {
		b, err := io.ReadAll(io.LimitReader(os.Stdin, model.MaxClipboardText+1))
		if err != nil {
			return model.Errorf(model.CodeBadRequest, "Pipe the text to clipboard set -.", "reading standard input: %v", err)
		}
		s := string(b)
		req.Text = &s
	}
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		r, err := cl.Clipboard(ctx, req)
		if err != nil || !c.Text {
			return r, err
		}
		return rawText(r.Text), nil
	})
}
