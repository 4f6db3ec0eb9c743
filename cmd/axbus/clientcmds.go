package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/schemas"
)

// newFlags returns a flag set whose errors and help go to stderr.
func newFlags(name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: axbus %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args and refuses positional arguments beyond max.
func parse(fs *flag.FlagSet, args []string, max int) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return errUsage
	}
	if fs.NArg() > max {
		fmt.Fprintf(fs.Output(), "axbus %s: unexpected argument %q\n", fs.Name(), fs.Arg(max))
		fs.Usage()
		return errUsage
	}
	return nil
}

// parseInterleaved parses flags that may come before or after the positional arguments
// (axbus wait 'text:"Saved"' --app notes), refusing more than max positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string, max int) error {
	var positional []string
	for {
		if err := parse(fs, args, len(args)); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(positional) > max {
		fmt.Fprintf(fs.Output(), "axbus %s: unexpected argument %q\n", fs.Name(), positional[max])
		fs.Usage()
		return errUsage
	}
	return fs.Parse(positional) // so that fs.Arg and fs.NArg see them
}

// appFlags are --app and --pid.
type appFlags struct {
	target bus.AppTarget
}

func (a *appFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.target.App, "app", "", "app name (exact, unique prefix or substring) or bundle id")
	fs.IntVar(&a.target.PID, "pid", 0, "app pid")
}

// simpleCall runs one request-reply command: flags, dial, call, print.
func simpleCall(ctx context.Context, out io.Writer, c *clientFlags, call func(context.Context, *bus.Client) (any, error)) error {
	client, closeConn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	reply, err := call(ctx, client)
	if err != nil {
		return err
	}
	return printJSON(out, reply)
}

func runApps(ctx context.Context, args []string, out io.Writer) error {
	var c clientFlags
	fs := newFlags("apps", "[flags]")
	c.register(fs)
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	return simpleCall(ctx, out, &c, func(ctx context.Context, cl *bus.Client) (any, error) {
		apps, err := cl.Apps(ctx)
		return bus.AppsReply{Apps: apps}, err
	})
}

func runWindows(ctx context.Context, args []string, out io.Writer) error {
	var c clientFlags
	var a appFlags
	fs := newFlags("windows", "--app NAME | --pid PID [flags]")
	c.register(fs)
	a.register(fs)
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	return simpleCall(ctx, out, &c, func(ctx context.Context, cl *bus.Client) (any, error) {
		return cl.Windows(ctx, a.target)
	})
}

func runInspect(ctx context.Context, args []string, out io.Writer) error {
	var c clientFlags
	var a appFlags
	var window, scope string
	fs := newFlags("inspect", "--app NAME | --pid PID [--window W] | --scope SNAPSHOT:ELEMENT [flags]")
	c.register(fs)
	a.register(fs)
	fs.StringVar(&window, "window", "", "window id or title (default: the focused window)")
	fs.StringVar(&scope, "scope", "", "list one element's subtree, off-screen content included: SNAPSHOT:ELEMENT from an earlier inspect")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	return simpleCall(ctx, out, &c, func(ctx context.Context, cl *bus.Client) (any, error) {
		return cl.Inspect(ctx, bus.InspectRequest{AppTarget: a.target, Window: window, Scope: scope})
	})
}

func runRead(ctx context.Context, args []string, out io.Writer) error {
	var c clientFlags
	var a appFlags
	var req bus.ReadRequest
	var textOnly bool
	fs := newFlags("read", "--app NAME | --pid PID [--window W] | --scope SNAPSHOT:ELEMENT [--limit BYTES] [--text] [flags]")
	c.register(fs)
	a.register(fs)
	fs.StringVar(&req.Window, "window", "", "window id or title (default: the focused window)")
	fs.StringVar(&req.Scope, "scope", "", "read one element's subtree: SNAPSHOT:ELEMENT from an earlier inspect")
	fs.IntVar(&req.Limit, "limit", 0, "most bytes of text (default and maximum 96 KiB)")
	fs.BoolVar(&textOnly, "text", false, "print the text alone, not the JSON reply")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	req.AppTarget = a.target
	return simpleCall(ctx, out, &c, func(ctx context.Context, cl *bus.Client) (any, error) {
		r, err := cl.Read(ctx, req)
		if err != nil || !textOnly {
			return r, err
		}
		return rawText(r.Text), nil
	})
}

func runStatus(ctx context.Context, args []string, out io.Writer) error {
	var c clientFlags
	fs := newFlags("status", "[flags]")
	c.register(fs)
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	return simpleCall(ctx, out, &c, func(ctx context.Context, cl *bus.Client) (any, error) {
		return cl.Status(ctx)
	})
}

func runSchema(_ context.Context, args []string, out io.Writer) error {
	fs := newFlags("schema", "[NAME]   (no name lists them)")
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		_, err := fmt.Fprintln(out, strings.Join(schemas.Names(), "\n"))
		return err
	}
	doc, ok := schemas.Get(fs.Arg(0))
	if !ok {
		fmt.Fprintf(os.Stderr, "axbus schema: no schema %q; the schemas are:\n  %s\n", fs.Arg(0), strings.Join(schemas.Names(), "\n  "))
		return errUsage
	}
	if _, err := out.Write(doc); err != nil {
		return err
	}
	if !bytes.HasSuffix(doc, []byte("\n")) { // a terminal's prompt starts on a line of its own
		_, err := io.WriteString(out, "\n")
		return err
	}
	return nil
}

func runTail(ctx context.Context, args []string, out io.Writer) error {
	var c clientFlags
	var opt bus.TailOptions
	fs := newFlags("tail", "[APP[.TYPE]] [flags]   e.g. tail notes, tail notes.value_changed, tail '*.focus_changed'")
	c.register(fs)
	fs.StringVar(&opt.Type, "type", "", "only events of this type")
	fs.DurationVar(&opt.Since, "since", 0, "first replay the events of this last duration (e.g. 5m)")
	fs.BoolVar(&opt.All, "all", false, "first replay all the history the stream keeps")
	fs.BoolVar(&opt.LastPerSubject, "last", false, "first replay the newest event of each app and type")
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	if f := fs.Arg(0); f != "" {
		app, typ, _ := strings.Cut(f, ".")
		if app != "*" {
			opt.App = app
		}
		if typ != "" && typ != "*" {
			opt.Type = typ
		}
	}
	client, closeConn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	events, err := client.Tail(ctx, opt)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out) // one event per line, as they come
	for env := range events {
		if err := enc.Encode(env); err != nil {
			return err
		}
	}
	return nil
}
