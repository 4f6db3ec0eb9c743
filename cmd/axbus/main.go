// Command axbus is the one binary of axbus: `axbus serve` runs the daemon of a desktop session,
// and the other commands are its clients (apps, windows, inspect, tail, status, schema). This
// package only wires the other packages together.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, out io.Writer) error
}

func commands() []command {
	return append([]command{
		{"serve", "run the daemon of this desktop session", runServe},
		{"apps", "list the running apps", runApps},
		{"windows", "list an app's windows", runWindows},
		{"inspect", "inspect a window into a snapshot", runInspect},
		{"read", "read a window's text", runRead},
		{"wait", "wait for a condition: wait CONDITION [--app NAME] [--timeout 5s]", runWait},
		{"tail", "follow events: tail [APP[.TYPE]]", runTail},
		{"status", "the daemon's health", runStatus},
		{"schema", "print a JSON Schema: schema [NAME]", runSchema},
		{"fixture", "change the headless desktop's fixture app: fixture CMD [KEY=VALUE...]", runFixture},
		{"doctor", "check this desktop's accessibility and print a report to paste into an issue", runDoctor},
	}, actionCommands()...)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			err := c.run(ctx, args[1:], stdout)
			return report(err, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "axbus: unknown command %q; run axbus help\n", args[0])
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "axbus: the accessibility tree of a desktop on NATS")
	fmt.Fprintln(w, "\nusage: axbus COMMAND [flags]   (axbus COMMAND -h for its flags)")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nExit status: see the README's table (0 ok, 2 bad request, 3 not found, 4 stale, 5 app gone, 6 timeout, 7 action failed, 8 permission, 9 unavailable, 10 already running, 11 address in use).")
}
