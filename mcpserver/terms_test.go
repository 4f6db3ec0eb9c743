package mcpserver

import (
	"regexp"
	"testing"

	"github.com/axbus/axbus/model"
)

// cliWords are what advice in MCP terms may not hold: a flag, or a command of axbus other than
// the programs a person runs (serve, doctor).
var cliWords = regexp.MustCompile(`(^|[\s('"])--[a-z]|axbus (?:[a-rt-z]|s[^e]|se[^r])[a-z_]*|axbus do[^c]`)

// TestAdviceInMCPTerms: the default suggestion of every code an agent may meet, and the
// daemon's advice naming flags and commands, are said in tools and arguments.
func TestAdviceInMCPTerms(t *testing.T) {
	advice := []string{
		// waiters: a locator's checks, an app that did not appear
		"Check the locator against what is there (axbus inspect --find LOCATOR), or wait longer (--timeout).",
		"Scroll it into view first (axbus scroll_to), or raise its window.",
		"Close or move what covers it, or act without physical input (--policy headless).",
		"Start the app first (axbus launch ENTRY), check its name against axbus apps, or wait longer (--for).",
		// commands: a lease held, an action left to physical input, a locator without its app
		`Wait until agent-2 is done: axbus lease acquire --pid 501 --window "w1" --wait 30s (it ends at its expiry, on release, or when agent-2's connection goes); or act elsewhere.`,
		"Wait until agent-2 is done: axbus lease acquire --input --wait 30s (it ends at its expiry); or act elsewhere.",
		"Only physical input is left to try: retry with policy physical (--policy physical). Click it.",
		"Name the app the locator looks in (app or pid; --app).",
		"Start the app yourself, then wait for it (axbus wait app:NAME).",
		"Acquire it (axbus lease acquire); see the leases with: axbus lease ls.",
		// observer
		"The app has no window yet: wait for one (axbus wait 'window:title~...') and inspect again.",
		"Name the window by id or by its exact title (see axbus windows).",
		"See the condition's schema with: axbus schema condition",
		"See the request's schema with: axbus schema click.request",
		"Ask an admin for credentials (axbus creds add).",
		"See axbus help for the actions this platform has.",
	}
	for _, c := range model.CodeTable() {
		if c.Code != model.CodeAlreadyRunning && c.Code != model.CodeAddressInUse { // the daemon's start, never a tool's
			advice = append(advice, c.Suggestion)
		}
	}
	for _, a := range advice {
		if got := inMCPTerms(a); cliWords.MatchString(got) {
			t.Errorf("%q\n  said as %q", a, got)
		}
	}
	if got := inExpectTerms("or wait longer (--for)."); got != "or wait longer (expect_timeout_ms)." {
		t.Errorf("an expect's time: %q", got)
	}
	if got := inMCPTerms("Wait: axbus lease acquire --input --wait 30s (it ends)"); got != "Wait: lease_acquire with wait_ms 30000 (it ends)" {
		t.Errorf("a lease's wait: %q", got)
	}
}
