// Command axbus is the one binary of axbus: `axbus serve` runs the daemon of a desktop session,
// and the other commands are its clients. This package only wires the other packages together:
// the command line (kong), the connection (NATS habits: -s/--server, NATS_URL, NATS_CONTEXT),
// and the output (a human form on a terminal, JSON when piped or with --json).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/alecthomas/kong"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/embedded"
)

// cli is the command line: one field per command, kebab-case, the snake_case names of the
// endpoints kept as aliases.
type cli struct {
	Version kong.VersionFlag `help:"Print the version and exit."`

	Serve            serveCmd            `cmd:"" help:"Run the daemon of this desktop session." group:"Daemon"`
	Apps             appsCmd             `cmd:"" help:"List the running apps." group:"Observe"`
	Windows          windowsCmd          `cmd:"" help:"List an app's windows." group:"Observe"`
	Inspect          inspectCmd          `cmd:"" help:"Inspect a window into a snapshot." group:"Observe"`
	Read             readCmd             `cmd:"" help:"Read a window's text in reading order." group:"Observe"`
	Screenshot       screenshotCmd       `cmd:"" help:"A PNG of a window, a region or the display, secure fields painted over." group:"Observe"`
	Snapshot         snapshotCmd         `cmd:"" help:"List a stored snapshot again, whole or from one element." group:"Observe"`
	Wait             waitCmd             `cmd:"" help:"Wait for a condition; exit 0 once it holds." group:"Observe"`
	Tail             tailCmd             `cmd:"" help:"Follow the desktop's events, live and from history." group:"Observe"`
	Status           statusCmd           `cmd:"" help:"The daemon's health." group:"Observe"`
	Hosts            hostsCmd            `cmd:"" help:"The hosts this connection reaches (a hub's fleet): host id, backend, version." group:"Observe"`
	Agents           agentsCmd           `cmd:"" help:"Who is connected: identities, roles, since when, last action, leases." group:"Observe"`
	Click            targetActionCmd     `cmd:"" help:"Click an element; prove it with --expect." group:"Act"`
	Press            pressCmd            `cmd:"" help:"Invoke a named action of an element." group:"Act"`
	SetValue         setValueCmd         `cmd:"" name:"set-value" aliases:"set_value" help:"Set an element's value." group:"Act"`
	Type             typeCmd             `cmd:"" help:"Type text into an element." group:"Act"`
	Focus            targetActionCmd     `cmd:"" help:"Give an element the keyboard focus." group:"Act"`
	ScrollTo         targetActionCmd     `cmd:"" name:"scroll-to" aliases:"scroll_to" help:"Scroll an element into view." group:"Act"`
	Expand           targetActionCmd     `cmd:"" help:"Expand an element." group:"Act"`
	Collapse         targetActionCmd     `cmd:"" help:"Collapse an element." group:"Act"`
	Select           targetActionCmd     `cmd:"" help:"Select an element (a row, an item, an option)." group:"Act"`
	Toggle           targetActionCmd     `cmd:"" help:"Toggle a checkbox or switch once." group:"Act"`
	Check            targetActionCmd     `cmd:"" help:"Check a checkbox (nothing when checked)." group:"Act"`
	Uncheck          targetActionCmd     `cmd:"" help:"Uncheck a checkbox (nothing when unchecked)." group:"Act"`
	Key              keyCmd              `cmd:"" help:"Send a key combination to an app (physical input)." group:"Act"`
	Lease            leaseCmd            `cmd:"" help:"Hold an app, a window or the physical input for this identity alone: acquire, renew, release, ls." group:"Act"`
	WebAccessibility webAccessibilityCmd `cmd:"" name:"web-accessibility" aliases:"web_accessibility" help:"Claim or release an app's web accessibility (macOS Chromium and Electron)." group:"Act"`
	Window           windowCmd           `cmd:"" help:"Move, resize, close, raise or minimize an app's window, proven by reading it again." group:"Act"`
	Launch           launchCmd           `cmd:"" help:"Start an app; return once it is in the accessibility tree." group:"Act"`
	Quit             quitCmd             `cmd:"" help:"Quit an app (its windows closed, or --force); return once it has ended." group:"Act"`
	Activate         activateCmd         `cmd:"" help:"Bring an app's window to the front with the input focus (window raise)." group:"Act"`
	Clipboard        clipboardCmd        `cmd:"" help:"Get or set the clipboard's text." group:"Act"`
	Record           recordCmd           `cmd:"" help:"Record agents' actions as a flow: start, then stop prints the flow." group:"Act"`
	Replay           replayCmd           `cmd:"" help:"Replay a flow: every step waited for, acted and proven; a failure stops it with a report." group:"Act"`
	Console          consoleCmd          `cmd:"" help:"Print a one-time URL of the daemon's web console: the desktop, its events, agents and actions, live in a browser." group:"Tools"`
	Creds            credsCmd            `cmd:"" help:"Manage the identities that may connect, and their roles (admins)." group:"Tools"`
	Hub              hubCmd              `cmd:"" help:"Join many desktops: run a hub they join as leaf nodes, or print its nats-server configuration." group:"Daemon"`
	MCP              mcpCmd              `cmd:"" name:"mcp" help:"Serve the desktop to AI agents over the Model Context Protocol (stdio, or HTTP on loopback)." group:"Tools"`
	Schema           schemaCmd           `cmd:"" help:"Print a JSON Schema of the API, or list them." group:"Tools"`
	Desktop          desktopCmd          `cmd:"" help:"The daemon's private headless desktop." group:"Tools"`
	Fixture          fixtureCmd          `cmd:"" help:"Change the headless desktop's fixture app." group:"Tools"`
	Doctor           doctorCmd           `cmd:"" help:"Check this desktop's accessibility; print a report to paste into an issue." group:"Tools"`
	Completion       completionCmd       `cmd:"" help:"Print a shell completion script (bash)." group:"Tools"`
}

// env is what every command runs with: the streams are passed in, never taken from os.
type env struct {
	ctx    context.Context
	stdout io.Writer
	stderr io.Writer
	parser *kong.Kong
	// command is the selected command's name, as the endpoint knows it (set_value).
	command string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// exited is how kong's exit (after --help or --version) leaves the parser in this process.
type exited struct{ code int }

// newParser is the command line's parser writing to the given streams.
func newParser(stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(&cli{},
		kong.Name("axbus"),
		kong.Description("The accessibility tree of a desktop on NATS: apps, windows, inspections, waits, actions and events.\n\n"+
			"Clients find the local daemon by themselves; -s/--server (or NATS_URL, or a NATS_CONTEXT of the nats CLI) names another. "+
			"On a terminal the output is for people; piped, or with --json, it is JSON. Exit statuses: see the README."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(exited{code}) }),
		kong.Vars{"version": "axbus " + api.Version, "element_help": elementHelp,
			"hub_listen": embedded.DefaultHubListen, "mcp_clients": mcpHostNames(), "hub_leaf_listen": embedded.DefaultHubLeafListen}.CloneWith(serveVars()),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: true}),
	)
}

// run executes one command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	if len(args) == 0 { // the help, but not a success
		run(ctx, []string{"--help"}, stderr, stderr)
		return exitUsage
	}
	parser, err := newParser(stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "axbus: %v\n", err)
		return exitInternal
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(exited)
			if !ok {
				panic(r)
			}
			code = e.code
		}
	}()
	kctx, err := parser.Parse(args)
	if err != nil {
		var pe *kong.ParseError
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "axbus: %v\n", err)
			fmt.Fprintf(stderr, "       run %q for its flags\n", "axbus "+commandPath(pe.Context)+" --help")
			return exitUsage
		}
		fmt.Fprintf(stderr, "axbus: %v\n", err)
		return exitUsage
	}
	e := &env{ctx: ctx, stdout: stdout, stderr: stderr, parser: parser, command: endpointName(kctx.Selected())}
	return report(kctx.Run(e), stdout, stderr)
}

// commandPath is the command a parse error is about ("" before one was named).
func commandPath(kctx *kong.Context) string {
	if kctx == nil || kctx.Selected() == nil {
		return ""
	}
	return kctx.Selected().FullPath()[len("axbus "):]
}

// endpointName is the endpoint of a command: its name in snake_case.
func endpointName(n *kong.Node) string {
	if n == nil {
		return ""
	}
	b := []byte(n.Name)
	for i, c := range b {
		if c == '-' {
			b[i] = '_'
		}
	}
	return string(b)
}
