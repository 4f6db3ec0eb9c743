package flows

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/waiters/condition"
)

// stepActions are what a step may do: the action endpoints, an app's launch and quit, a window
// change, and a wait.
var stepActions = append(slices.Clone(api.Actions), "launch", "quit", "window", api.FlowWait)

// appSteps are the steps that act on an app or its window, not on an element: no locator.
var appSteps = []string{"key", "launch", "quit", "window", api.FlowWait}

// param is a parameter in a step's value, expect or locator: ${name}, or ${secret:name} for
// a password, which is given like any other but never recorded.
var param = regexp.MustCompile(`\$\{(secret:)?([A-Za-z_][A-Za-z0-9_]{0,63})\}`)

// Check refuses a flow a replay could not run, before any step runs: its version, its steps'
// actions, locators and expects (after their parameters are given), and parameters not given.
func Check(f *api.Flow, vars map[string]string) error {
	if f.Version != api.FlowVersion {
		return flowError("", "Write version: %d; this daemon reads that version of the format.", "flow version %d, want %d", f.Version, api.FlowVersion)
	}
	if len(f.Steps) == 0 || len(f.Steps) > api.MaxFlowSteps {
		return flowError("", fmt.Sprintf("Give 1 to %d steps.", api.MaxFlowSteps), "%d steps", len(f.Steps))
	}
	for i := range f.Steps {
		s, err := Bind(f.Steps[i], vars)
		if err != nil {
			return stepError(i, err)
		}
		if err := checkStep(s); err != nil {
			return stepError(i, err)
		}
	}
	return nil
}

func checkStep(s api.FlowStep) error {
	if !slices.Contains(stepActions, s.Action) {
		return flowError("action", "Use an action endpoint's name (click, type, set_value, key, toggle, ...) or wait.", "unknown action %q", model.Excerpt(s.Action))
	}
	if s.Action == api.FlowWait && s.Expect == "" {
		return flowError("expect", `Give a wait step the condition it waits for as its expect: text:"Saved".`, "a wait step without a condition")
	}
	if s.Action == "launch" && s.Value == "" {
		return flowError("value", "Give the app's desktop entry or name as the step's value: launch org.gnome.Calculator.", "a launch step without its entry")
	}
	if s.Action == "window" {
		if _, err := windowChange(s); err != nil {
			return err
		}
	}
	if s.Locator == "" && !slices.Contains(appSteps, s.Action) {
		return flowError("locator", "Name the element: role=button,name=Save.", "%s needs a locator", s.Action)
	}
	if s.Locator != "" {
		if _, err := condition.ParseLocator(s.Locator); err != nil {
			return err
		}
	}
	if s.Expect != "" {
		if _, err := condition.ParseCompact(s.Expect); err != nil {
			return err
		}
	}
	if s.App == "" {
		return flowError("app", "Name the app the step acts on by its name (app: gedit).", "a step without its app")
	}
	if s.TimeoutMS < 0 || s.TimeoutMS > int(api.MaxWaitTimeout.Milliseconds()) {
		return flowError("timeout_ms", fmt.Sprintf("Give timeout_ms from 0 (5 s) to %d.", api.MaxWaitTimeout.Milliseconds()), "timeout_ms %d", s.TimeoutMS)
	}
	return nil
}

// windowChange is a window step's request: its value is "move X Y", "resize W H", "raise",
// "minimize" or "close".
func windowChange(s api.FlowStep) (api.WindowRequest, error) {
	req := api.WindowRequest{AppTarget: api.AppTarget{App: s.App}, Window: s.Window}
	f := strings.Fields(s.Value)
	bad := flowError("value", `Give a window step's change as its value: "move 40 30", "resize 900 700", "raise", "minimize" or "close".`, "window change %q", model.Excerpt(s.Value))
	if len(f) == 0 {
		return req, bad
	}
	req.Op = f[0]
	switch {
	case (req.Op == "move" || req.Op == "resize") && len(f) == 3:
		a, errA := strconv.ParseFloat(f[1], 64)
		b, errB := strconv.ParseFloat(f[2], 64)
		if errA != nil || errB != nil || math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
			return req, bad
		}
		if req.Op == "move" {
			req.X, req.Y = &a, &b
		} else {
			req.W, req.H = &a, &b
		}
	case (req.Op == "raise" || req.Op == "minimize" || req.Op == "close") && len(f) == 1:
	default:
		return req, bad
	}
	return req, nil
}

// Bind gives a step's parameters their values: a parameter not in vars is refused, naming it.
func Bind(s api.FlowStep, vars map[string]string) (api.FlowStep, error) {
	var missing string
	sub := func(in string) string {
		return param.ReplaceAllStringFunc(in, func(m string) string {
			name := param.FindStringSubmatch(m)[2]
			v, ok := vars[name]
			if !ok && missing == "" {
				missing = name
			}
			return v
		})
	}
	s.Value, s.Locator, s.Expect = sub(s.Value), sub(s.Locator), sub(s.Expect)
	if missing != "" {
		return s, flowError("vars", fmt.Sprintf("Give it: --var %s=VALUE (vars in JSON).", missing), "parameter %s has no value", missing)
	}
	return s, nil
}

// Params lists the parameters a flow names, each once, in order.
func Params(f *api.Flow) []string {
	var out []string
	for _, s := range f.Steps {
		for _, in := range []string{s.Locator, s.Value, s.Expect} {
			for _, m := range param.FindAllStringSubmatch(in, -1) {
				if !slices.Contains(out, m[2]) {
					out = append(out, m[2])
				}
			}
		}
	}
	return out
}

func flowError(field, suggestion, format string, args ...any) *model.Error {
	e := model.Errorf(model.CodeBadRequest, suggestion, format, args...)
	if field != "" {
		e = e.With("field", field)
	}
	return e
}

// stepError places err at step i (from 1, as a person counts them).
func stepError(i int, err error) error {
	e := *model.AsError(err)
	e.Message = fmt.Sprintf("step %d: %s", i+1, strings.TrimSpace(e.Message))
	return e.With("step", i+1)
}
