package mcpserver

import (
	"regexp"
	"strings"
)

// mcpTerms is the one table of the daemon's and the CLI's words in its advice (commands and
// flags) and what they are to an agent over MCP: its tools and their arguments. Longer phrases
// come first: the first that matches at a place wins. What names a program a person runs
// (axbus serve, axbus doctor) is left as it is: no tool does that.
var mcpTerms = strings.NewReplacer(
	"physical input (--policy physical)", "physical input (policy physical)",
	" (--policy physical)", "", // after "policy physical", said twice
	"--policy physical", "policy physical",
	"--policy headless", "policy headless",
	"(app or pid; --app)", "(app or pid)",
	"by --pid", "by pid",
	"axbus inspect --find LOCATOR", "inspect with find",
	"axbus windows --app NAME", "list_windows",
	"axbus windows", "list_windows",
	"axbus apps", "list_apps",
	"axbus scroll_to", "scroll_to",
	"axbus launch ENTRY", "launch_app",
	"axbus wait 'window:title~...'", "wait_for window:title~...",
	"axbus wait app:NAME", "wait_for with app",
	"See axbus help for the actions", "See the tool list for the actions",
	"See the condition's schema with: axbus schema condition", "See the conditions in the server's instructions",
	"See the condition's schema: axbus schema condition", "See the conditions in the server's instructions",
	"Ask an admin for credentials (axbus creds add).", "Ask whoever set up this MCP server for credentials with that right.",
	"Acquire it (axbus lease acquire); see the leases with: axbus lease ls.", "Acquire it first (lease_acquire).",
	"Start the daemon with `axbus serve` (or `make run`), or name another with --server/--host.", startDaemon,
	"Start the daemon with `axbus serve` (or `make run`).", startDaemon,
	"--timeout", "timeout_ms",
	"--for", "timeout_ms",
)

// mcpCommands are the advice's command lines with arguments of their own, in MCP terms.
var mcpCommands = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`axbus lease acquire( --[a-z]+( "[^"]*"| [^ ()"-][^ ()]*)?)*`), "lease_acquire with wait_ms 30000"},
	{regexp.MustCompile(`(See the request's schema with: )?axbus schema [A-Za-z_]+(\.[a-z_]+)*`), "See the tool's input schema"},
}

// inMCPTerms says advice for the command line in the names of the tools and their arguments.
func inMCPTerms(s string) string {
	if !strings.Contains(s, "axbus ") && !strings.Contains(s, "--") {
		return s
	}
	s = mcpTerms.Replace(s)
	for _, c := range mcpCommands {
		s = c.re.ReplaceAllString(s, c.with)
	}
	return s
}

// inExpectTerms is inMCPTerms for an expect's advice, whose time limit is expect_timeout_ms.
func inExpectTerms(s string) string {
	return inMCPTerms(strings.NewReplacer("--timeout", "expect_timeout_ms", "--for", "expect_timeout_ms").Replace(s))
}
