package main

import (
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
)

// TestExpectNamesItsTarget: an expect's state or value that names no element tests the action's
// own target, by locator or by id; a wait, which has no target, refuses it with a suggestion that
// names the element; so does an expect of an action without an element (key).
func TestExpectNamesItsTarget(t *testing.T) {
	d := startTestDaemon(t)
	out, errOut, code := d.cli(t, "check", `role=checkbox,name="Remember me"`, "--app", "Notes", "--expect", "state:checked", "--json")
	r := testdaemon.Decode[api.ActionReply](t, out)
	if code != 0 || r.Expect == nil || r.Expect.Outcome != api.WaitMet || r.Target == nil {
		t.Fatalf("check LOCATOR --expect state:checked: exit %d\n%s%s", code, out, errOut)
	}
	if want := "state:" + r.Target.Element + "=checked"; r.Expect.Condition != want {
		t.Fatalf("the expect tested %q, want %q (the check's target)", r.Expect.Condition, want)
	}
	id := r.Target.Snapshot + ":" + r.Target.Element
	if out, errOut, code := d.cli(t, "uncheck", id, "--expect", "state!=checked", "--json"); code != 0 {
		t.Fatalf("uncheck ID --expect state!=checked: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = d.cli(t, "set-value", "role=text_field,name=Title", "Groceries", "--app", "Notes", "--expect", `value:"Groceries"`, "--json")
	if r := testdaemon.Decode[api.ActionReply](t, out); code != 0 || r.Expect == nil || r.Expect.Outcome != api.WaitMet {
		t.Fatalf(`set-value --expect value:"Groceries": exit %d`+"\n%s%s", code, out, errOut)
	}

	badRequest := model.CodeBadRequest.Info().Exit
	out, errOut, code = d.cli(t, "wait", "state:checked", "--app", "Notes", "--json")
	if e := testdaemon.Decode[api.ErrorBody](t, out).Error; code != badRequest || !strings.Contains(e.Message, "names no element") ||
		!strings.Contains(e.Suggestion, "state:eN=checked") {
		t.Fatalf("wait state:checked: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = d.cli(t, "key", "ctrl+s", "--app", "Notes", "--expect", "state:checked", "--json")
	if e := testdaemon.Decode[api.ErrorBody](t, out).Error; code != badRequest || !strings.Contains(e.Message, "expect: state:checked names no element") || e.Suggestion == "" {
		t.Fatalf("key --expect state:checked: exit %d\n%s%s", code, out, errOut)
	}
}
