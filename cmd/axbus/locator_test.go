package main

import (
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/observer/sim"
)

// TestLocatorsThroughTheCLI: on the simulated desktop, every outcome of an action on a locator,
// as the command line and its exit status give it, each reply held to its schema.
func TestLocatorsThroughTheCLI(t *testing.T) {
	d := startTestDaemon(t)
	desk := d.Backend.(*sim.Desktop)

	out, errOut, code := d.cli(t, "click", "role=button,name=Save", "--app", "Notes", "--expect", `text:"Saved"`)
	if code != 0 {
		t.Fatalf("click by locator: exit %d\n%s%s", code, out, errOut)
	}
	testdaemon.MustMatch(t, "click.reply", []byte(out))
	r := testdaemon.Decode[api.ActionReply](t, out)
	if r.Target == nil || r.Target.Name != "Save" || r.Target.Locator != "role=button,name=Save" || r.Target.WaitedMS == nil ||
		r.Target.Bounds == nil || !strings.HasPrefix(r.Target.Snapshot, "s_") || r.Expect == nil || r.Expect.Outcome != api.WaitMet {
		t.Fatalf("reply = %s", out)
	}
	// The reply's id is actionable: the next step may use it.
	if out, errOut, code := d.cli(t, "focus", r.Target.Snapshot+":"+r.Target.Element); code != 0 {
		t.Fatalf("focus by the reply's id: exit %d\n%s%s", code, out, errOut)
	}

	if err := desk.AddNode(501, "toolbar", sim.NodeSpec{ID: "save2", Role: "AXButton", Title: "Save", Frame: []float64{300, 84, 64, 28}}); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = d.cli(t, "click", "role=button,name=Save", "--app", "Notes")
	e := testdaemon.Decode[api.ErrorBody](t, out).Error
	if code != model.CodeAmbiguousTarget.Info().Exit || e.Code != model.CodeAmbiguousTarget || len(e.Details["candidates"].([]any)) != 2 {
		t.Fatalf("two Save buttons: exit %d, %s", code, errOut)
	}
	out, errOut, code = d.cli(t, "click", "role=button,name=Save,nth=2", "--app", "Notes")
	if r := testdaemon.Decode[api.ActionReply](t, out); code != 0 || r.Target.Bounds.X != 300 {
		t.Fatalf("nth=2: exit %d\n%s%s", code, out, errOut)
	}

	out, errOut, code = d.cli(t, "inspect", "--app", "Notes", "--find", "role=button,name=Save")
	testdaemon.MustMatch(t, "inspect.reply", []byte(out))
	if code != 0 || strings.Count(out, `"role":"button"`) != 2 || len(testdaemon.Decode[model.Inspection](t, out).Elements) != 2 {
		t.Fatalf("inspect --find: exit %d\n%s%s", code, out, errOut)
	}

	out, errOut, code = d.cli(t, "click", "role=button,name=Nowhere", "--app", "Notes", "--timeout", "300ms")
	e = testdaemon.Decode[api.ErrorBody](t, out).Error
	if code != model.CodeTimeout.Info().Exit || e.Details["check"] != "not_found" || e.Suggestion == "" {
		t.Fatalf("no such button: exit %d, %s", code, errOut)
	}
	out, errOut, code = d.cli(t, "click", "role=button,,name=Save", "--app", "Notes")
	if e := testdaemon.Decode[api.ErrorBody](t, out).Error; code != model.CodeBadRequest.Info().Exit || e.Details["position"] == nil {
		t.Fatalf("a bad locator: exit %d, %s", code, errOut)
	}
	_, errOut, code = d.cli(t, "click", "role=button,name=Save")
	if code != model.CodeBadRequest.Info().Exit || !strings.Contains(errOut, "app") {
		t.Fatalf("a locator without its app: exit %d, %s", code, errOut)
	}

	// A window over the first Save: physical input would land on it, so it is refused.
	if err := desk.AddNode(501, "", sim.NodeSpec{ID: "popup", Role: "AXWindow", Title: "Popup", Frame: []float64{100, 70, 100, 60}}); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = d.cli(t, "click", "role=button,name=Save,nth=1", "--app", "Notes", "--policy", "physical", "--timeout", "300ms")
	if e := testdaemon.Decode[api.ErrorBody](t, out).Error; code != model.CodeTimeout.Info().Exit || e.Details["check"] != "covered" {
		t.Fatalf("a covered button, physical input: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code = d.cli(t, "click", "role=button,name=Save,nth=1", "--app", "Notes"); code != 0 {
		t.Fatalf("a covered button, no physical input: exit %d %s", code, errOut)
	}
	if err := desk.RemoveNode(501, "popup"); err != nil {
		t.Fatal(err)
	}

	out, errOut, code = d.cli(t, "wait", "role=toolbar >> name=Save,nth=2", "--app", "Notes")
	if r := testdaemon.Decode[api.WaitResult](t, out); code != 0 || r.Match == nil || r.Match.Bounds.X != 300 {
		t.Fatalf("wait on a locator: exit %d\n%s%s", code, out, errOut)
	}
}
