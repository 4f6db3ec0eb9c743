package flows

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/commands"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/text"
)

// stepOf is the step of an action done: a fresh unique locator for its target, its value (a
// password's only as a parameter), and the expect that proves it; nil for an action whose own
// expect was not met, which a replay should not repeat.
func stepOf(ctx context.Context, o *observer.Observer, d commands.Done) *api.FlowStep {
	r := d.Reply
	if r.Expect != nil && r.Expect.Outcome != api.WaitMet {
		return nil
	}
	s := &api.FlowStep{Action: d.Action, App: r.App.Name, Policy: d.Request.Policy, TimeoutMS: d.Request.TimeoutMS}
	if d.Snapshot != nil {
		s.Locator = locatorOf(d.Snapshot, d.Index)
	}
	switch d.Action {
	case "set_value", "select":
		s.Value = d.Request.Value
	case "type":
		s.Value = d.Request.Text
	case "key":
		s.Value = d.Request.Keys
	}
	if d.Secure && s.Value != "" {
		field := ""
		if d.Reply.Target != nil {
			field = d.Reply.Target.Name
		}
		s.Value = secretParam(field)
		return s // what a password field holds is never read: nothing proves it but the steps after
	}
	s.Expect = expectOf(ctx, o, d)
	return s
}

// secretParam is the parameter a password typed into field stands as, named after the field:
// ${secret:password} for "Password".
func secretParam(field string) string {
	name := strings.Trim(nonWord.ReplaceAllString(strings.ToLower(field), "_"), "_")
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		name = "password"
	}
	return "${secret:" + name[:min(len(name), 64)] + "}"
}

var (
	nonWord   = regexp.MustCompile(`[^a-z0-9_]+`)
	elementID = regexp.MustCompile(`(^|[:=,\s])e[0-9]+([=,\s]|$)`)
)

// expectOf is the condition that proves an action, chosen so that it would not have held had
// the action done nothing: the agent's own expect; the state or value the action set; a dialog
// or window it opened; a text it made appear in the window; its window gone. "" when nothing it
// did can be told.
func expectOf(ctx context.Context, o *observer.Observer, d commands.Done) string {
	if e := d.Request.Expect; e != nil && e.Expr != "" {
		if !elementID.MatchString(e.Expr) {
			return e.Expr
		}
		if d.Reply.Target != nil { // eN names an element of a snapshot gone by replay, unless it is the target
			if own := ofTarget(e.Expr, d.Reply.Target.Element); own != "" {
				return own
			}
		}
	}
	r := d.Reply
	checkable := d.Snapshot != nil && d.Index >= 0 && d.Index < len(d.Snapshot.Walk.Nodes) && isCheckable(d.Snapshot.Walk.Nodes[d.Index].Role)
	switch {
	case d.Action == "toggle" || d.Action == "check" || d.Action == "uncheck" || checkable && (d.Action == "press" || d.Action == "click"):
		if r.PostState != nil {
			if r.PostState.States.Has(model.StateChecked) {
				return "state:checked"
			}
			return "state!=checked"
		}
	case d.Action == "set_value" || d.Action == "type":
		if r.PostState != nil && r.PostState.Value != nil && *r.PostState.Value != "" {
			return "value:" + strconv.Quote(*r.PostState.Value)
		}
	}
	for _, ev := range d.Events {
		title := ""
		if ev.Element != nil {
			title = ev.Element.Name
		}
		if title == "" && ev.Window != nil {
			title = ev.Window.Title
		}
		switch ev.Type {
		case model.EventDialogOpened:
			if title != "" {
				return "dialog:title=" + strconv.Quote(title)
			}
			return "dialog"
		case model.EventWindowCreated:
			if title != "" {
				return "window:title=" + strconv.Quote(title)
			}
		}
	}
	if d.Snapshot == nil {
		return ""
	}
	if (d.Action == "click" || d.Action == "press") && r.PostState == nil && inDialog(d.Snapshot, d.Index) {
		return "window_gone" // the dialog (or sheet) it was in went with it: OK, Cancel, Close
	}
	for _, ev := range d.Events {
		if ev.Type == model.EventWindowClosed && ev.Window != nil && ev.Window.ID == d.Snapshot.Window.ID {
			return "window_gone"
		}
	}
	if line := newText(ctx, o, d); line != "" {
		return "text:" + strconv.Quote(line)
	}
	return ""
}

// targetState is an expect on one element's state by its id: state:e12=checked, state:e12!=checked.
var targetState = regexp.MustCompile(`^state:(e[0-9]+)(!?=)([a-z_]+)$`)

// ofTarget is expr, an expect on the state of element (the action's target) by its id, as the
// element-free form that means the action's target: what a replay's fresh target is tested by.
// "" when expr is not that.
func ofTarget(expr, element string) string {
	m := targetState.FindStringSubmatch(strings.TrimSpace(expr))
	if m == nil || m[1] != element {
		return ""
	}
	if m[2] == "!=" {
		return "state!=" + m[3]
	}
	return "state:" + m[3]
}

// isCheckable says whether a press on an element of role changes its checked state.
func isCheckable(role model.Role) bool {
	switch role {
	case model.RoleCheckbox, model.RoleRadio, model.RoleToggleButton, model.RoleSwitch:
		return true
	}
	return false
}

// inDialog says whether the element at index of snap is within a dialog, sheet or alert.
func inDialog(snap *observer.Snapshot, index int) bool {
	nodes := snap.Walk.Nodes
	for i := index; i >= 0 && i < len(nodes); i = nodes[i].Parent {
		switch nodes[i].Role {
		case model.RoleDialog, model.RoleSheet, model.RoleAlert:
			return true
		}
	}
	return false
}

// windowText is the text of a snapshot's window as a read gives it now ("" when it cannot).
func windowText(ctx context.Context, o *observer.Observer, snap *observer.Snapshot) string {
	read, err := text.Read(ctx, o, text.Request{App: model.AppQuery{PID: snap.App.PID}, Window: snap.Window.ID})
	if err != nil {
		return ""
	}
	return read.Text
}

// newText is a line of the target's window's text now that was not there just before the
// action, if any (the first, at most 200 bytes).
func newText(ctx context.Context, o *observer.Observer, d commands.Done) string {
	before, ok := d.Before.(string)
	if !ok || before == "" {
		return "" // not read before: nothing tells what is new
	}
	after := windowText(ctx, o, d.Snapshot)
	for line := range strings.Lines(after) {
		line = strings.TrimSpace(line)
		if line != "" && len(line) <= 200 && !strings.Contains(before, line) {
			return line
		}
	}
	return ""
}
