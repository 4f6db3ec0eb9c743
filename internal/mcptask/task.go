// Package mcptask owns the agent's task that measures the MCP surface: the steps an agent takes
// through `axbus mcp` on the GTK3 fixture (find its window, inspect, switch a page, toggle, type,
// set a value, open a dialog, wait, close it, and the mistakes an agent makes on the way), each
// checked by what its result says. The end-to-end test asserts on it and `make bench` times it;
// neither knows how the calls travel (Caller).
package mcptask

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Result is one tool call's result as an MCP client received it.
type Result struct {
	Text       string          // the text contents, one after another
	Structured json.RawMessage // the structured content, or nothing
	IsError    bool
	MS         float64 // the call's latency as the client saw it
}

// Caller makes one tool call in the task's session.
type Caller func(ctx context.Context, tool string, args map[string]any) (Result, error)

// Step is one call of the task: what was asked, what came back, and what the step expected of it
// (Code: the error code a step that must fail names first; "" for one that must succeed).
type Step struct {
	Tool string
	Args map[string]any
	Code string
	Result
}

// Fixture names what the task acts on in the GTK3 fixture (fixtures/apps): its app name and
// the words of its widgets, and a button the caller made insensitive before the task.
type Fixture struct {
	App                                   string
	Page1, Page2, Page2Text               string
	Notify, Remember, Name, Volume, Save  string
	DialogTitle, DialogText, DialogButton string
	Disabled                              string
}

// GTK3 is the GTK3 fixture's words (fixtures/apps/fixture_control.py); App and Disabled are the
// caller's to fill.
var GTK3 = Fixture{
	Page1: "Page 1", Page2: "Page 2", Page2Text: "Second page",
	Notify: "Notify me", Remember: "Remember me", Name: "Name", Volume: "Volume", Save: "Save",
	DialogTitle: "Saved", DialogText: "Your changes were saved.", DialogButton: "OK",
}

// Run runs the task and returns its steps, stopping at the first whose result is not what an
// agent needs (an error for a step that must succeed, or another code for one that must fail).
func Run(ctx context.Context, call Caller, f Fixture) ([]Step, error) {
	r := &run{ctx: ctx, call: call}
	r.do("list_apps", nil, "", f.App)
	r.do("list_windows", map[string]any{"app": f.App}, "", "")
	page1 := r.do("inspect", map[string]any{"app": f.App}, "", "")
	notify := r.id(page1, "checkbox", f.Notify)
	r.do("click", map[string]any{"target": r.id(page1, "", f.Page2), "expect": fmt.Sprintf("text:%q", f.Page2Text)}, "", "expect met")
	// A mistake: the checkbox of the page that no longer shows, by its id of the last listing.
	r.do("toggle", map[string]any{"target": notify}, "ELEMENT_HIDDEN", "")
	page2 := r.do("inspect", map[string]any{"app": f.App}, "", f.Page2Text)
	r.do("click", map[string]any{"target": r.id(page2, "", f.Page1), "expect": fmt.Sprintf("element:role=checkbox,name=%q", f.Notify)}, "", "expect met")
	// A mistake: a button that takes no click now.
	r.do("click", map[string]any{"target": r.id(page2, "button", f.Disabled)}, "ELEMENT_DISABLED", "")
	remember := r.id(page2, "checkbox", f.Remember)
	r.do("toggle", map[string]any{"target": remember, "expect": "state:" + remember + "=checked"}, "", "expect met")
	name := r.id(page2, "", f.Name)
	r.do("type_text", map[string]any{"target": name, "text": "Ada", "expect": "value:" + name + "=Ada"}, "", "expect met")
	volume := r.id(page2, "slider", f.Volume)
	r.do("set_value", map[string]any{"target": volume, "value": "42", "expect": "value:" + volume + "=42"}, "", "expect met")
	r.do("click", map[string]any{"target": r.id(page2, "button", f.Save), "expect": fmt.Sprintf("dialog:title~%q", f.DialogTitle)}, "", "expect met")
	dialog := r.do("wait_for", map[string]any{"condition": fmt.Sprintf("text:%q", f.DialogText), "app": f.App, "listing": true}, "", "")
	r.do("click", map[string]any{"target": r.id(dialog, "button", f.DialogButton), "expect": "window_gone"}, "", "expect met")
	// A mistake: a wait for the dialog just closed.
	r.do("wait_for", map[string]any{"condition": "dialog", "app": f.App, "timeout_ms": 300}, "TIMEOUT", "")
	return r.steps, r.err
}

// run is the task under way: its steps so far, and the first failure, after which nothing runs.
type run struct {
	ctx   context.Context
	call  Caller
	steps []Step
	err   error
}

// do makes one call unless the task failed already, and checks its result: code first in the
// text of an error a step must give, or no error and the text holding has.
func (r *run) do(tool string, args map[string]any, code, has string) string {
	if r.err != nil {
		return ""
	}
	res, err := r.call(r.ctx, tool, args)
	r.steps = append(r.steps, Step{Tool: tool, Args: args, Code: code, Result: res})
	switch {
	case err != nil:
		r.err = fmt.Errorf("step %d %s: %w", len(r.steps), tool, err)
	case code != "" && (!res.IsError || !strings.HasPrefix(res.Text, code+": ")):
		r.err = fmt.Errorf("step %d %s %v: want an error %s, got (isError %v) %.600s", len(r.steps), tool, args, code, res.IsError, res.Text)
	case code == "" && (res.IsError || !strings.Contains(res.Text, has)):
		r.err = fmt.Errorf("step %d %s %v: want %q, got (isError %v) %.1500s", len(r.steps), tool, args, has, res.IsError, res.Text)
	}
	return res.Text
}

// id is the id of the element of role (any role when "") named name in a listing's text, as an
// agent reads it off the line `e12 role "name" ...`; the task fails when there is none.
func (r *run) id(listing, role, name string) string {
	if r.err != nil {
		return ""
	}
	roles := `[a-z_]+`
	if role != "" {
		roles = regexp.QuoteMeta(role)
	}
	m := regexp.MustCompile(`(?m)^\s*(e\d+) ` + roles + ` "` + regexp.QuoteMeta(name) + `"`).FindStringSubmatch(listing)
	if m == nil {
		r.err = fmt.Errorf("step %d: no %s %q in the listing:\n%s", len(r.steps), role, name, listing)
		return ""
	}
	return m[1]
}
