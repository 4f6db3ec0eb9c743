package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// The refusals of actions by id on targets that cannot take them, on real apps, through NATS and
// through the built binary: a disabled element (ELEMENT_DISABLED), one that still exists but no
// longer shows (ELEMENT_HIDDEN): a page not shown, a dialog hidden rather than destroyed. An
// element merely scrolled out of view is acted on.

// factoryKind names GTK 3's widget factory (Debian's gtk-3-examples) among a test's apps.
const factoryKind = "widget-factory"

// refusedAtOnce checks that action on target is refused with code at once, through NATS and
// through the binary bin (its exit status, the JSON error it prints and one line on stderr).
// check is the failed check its details name ("" for a code that names none).
func (dd *desktopDaemon) refusedAtOnce(t *testing.T, bin, action, target string, code model.Code, check string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	reply, err := dd.client.Act(ctx, action, api.ActionRequest{Target: target})
	took := time.Since(start)
	e := model.AsError(err)
	if err == nil || e.Code != code || (check != "" && e.Details["check"] != check) || e.Suggestion == "" || took > time.Second {
		t.Fatalf("%s %s through NATS: %+v %v %v after %v; want %s at once", action, target, reply, err, e, took, code)
	}
	t.Logf("%s %s: %s after %v: %s", action, target, code, took.Round(100*time.Microsecond), e.Message)

	cmd := exec.Command(bin, action, "--state-dir", dd.Dir, target)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(runErr, &exit) || exit.ExitCode() != code.Info().Exit {
		t.Fatalf("axbus %s %s: %v, want exit %d\n%s%s", action, target, runErr, code.Info().Exit, stdout.String(), stderr.String())
	}
	if body := testdaemon.Decode[api.ErrorBody](t, stdout.String()); body.Error == nil || body.Error.Code != code ||
		!strings.HasPrefix(testdaemon.OneLine(t, stderr.String()), "axbus: "+string(code)+": ") {
		t.Fatalf("axbus %s %s printed\n%s%s", action, target, stdout.String(), stderr.String())
	}
}

// TestRefusalsOnGTK3: on the GTK3 fixture and GTK 3's widget factory.
func TestRefusalsOnGTK3(t *testing.T) {
	bin := testdaemon.Axbus(t)
	dd := startDaemonWith(t, func(ctx context.Context, dd *desktopDaemon) []int {
		fixture, err := dd.session.StartApp(ctx, headless.KindGTK3)
		if err != nil {
			t.Fatal(err)
		}
		factory, err := dd.session.StartProgram(ctx, factoryKind, []string{"gtk3-widget-factory"})
		if err != nil {
			t.Fatal(err)
		}
		dd.apps[headless.KindGTK3], dd.apps[factoryKind] = fixture, factory
		return []int{fixture.PID, factory.PID}
	})
	t.Run("fixture", func(t *testing.T) { dd.refusalsOnFixture(t, bin) })
	t.Run(factoryKind, func(t *testing.T) { dd.refusalsOnFactory(t, bin) })
}

func (dd *desktopDaemon) refusalsOnFixture(t *testing.T, bin string) {
	kind := headless.KindGTK3
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// A disabled button: refused at once; scroll_to is not refused for it; once enabled, as the
	// suggested wait sees, the same id is clicked.
	dd.do(t, kind, map[string]any{"cmd": "add_button", "label": "Apply", "sensitive": false})
	if res, err := dd.client.Wait(ctx, api.WaitRequest{Expr: "element:role=button,name=Apply", AppTarget: api.AppTarget{PID: dd.apps[kind].PID}}); err != nil || res.Outcome != api.WaitMet {
		t.Fatalf("the added button shows: %+v %v", res, err)
	}
	insp := dd.inspect(t, kind)
	apply := mustFind(t, insp, model.RoleButton, "Apply")
	dd.refusedAtOnce(t, bin, "click", apply, model.CodeElementDisabled, "disabled")
	if _, err := dd.client.Act(ctx, "scroll_to", api.ActionRequest{Target: apply}); model.CodeOf(err) == model.CodeElementDisabled {
		t.Fatalf("scroll_to a disabled button: %v", err)
	}
	dd.do(t, kind, map[string]any{"cmd": "set_sensitive", "label": "Apply", "sensitive": true, "after_ms": 300})
	_, id, _ := strings.Cut(apply, ":")
	res, err := dd.client.Wait(ctx, api.WaitRequest{Expr: "state:" + id + "=enabled", Snapshot: insp.SnapshotID,
		AppTarget: api.AppTarget{PID: dd.apps[kind].PID}, TimeoutMS: 5000})
	if err != nil || res.Outcome != api.WaitMet {
		t.Fatalf("the suggested wait: %+v %v", res, err)
	}
	if r, err := dd.actTarget(t, "click", apply, api.ActionRequest{}); err != nil || !r.Done {
		t.Fatalf("click once enabled: %+v %v", r, err)
	}
	dd.eventually(t, kind, "Apply is clicked once", func(s headless.State) bool { return s.Buttons[0].Clicks == 1 })
	dd.do(t, kind, map[string]any{"cmd": "remove_buttons"})

	// The stack's page not shown: its check box is refused and stays unchecked; shown again, it
	// is checked by the same id.
	insp = dd.inspect(t, kind)
	notify := mustFind(t, insp, model.RoleCheckbox, "Notify me")
	dd.do(t, kind, map[string]any{"cmd": "show_page", "page": 2})
	dd.refusedAtOnce(t, bin, "check", notify, model.CodeElementHidden, "hidden")
	if dd.state(t, kind).Notify {
		t.Fatal("the hidden check box was checked")
	}
	dd.do(t, kind, map[string]any{"cmd": "show_page", "page": 1})
	if r, err := dd.actTarget(t, "check", notify, api.ActionRequest{}); err != nil || !r.Done {
		t.Fatalf("check once its page shows: %+v %v", r, err)
	}
	dd.eventually(t, kind, "Notify me is checked", func(s headless.State) bool { return s.Notify })
	dd.mustActOn(t, notify, "uncheck")

	// Scrolled out of view is not hidden: Row 400, not showing (GTK3 puts it at INT_MIN), is
	// selected by its id.
	rows, err := dd.client.Inspect(ctx, api.InspectRequest{Scope: mustFind(t, insp, model.RoleList, "Rows")})
	if err != nil {
		t.Fatal(err)
	}
	var row *model.Element
	for i, e := range rows.Elements {
		if e.Role == model.RoleLabel && e.Name == "Row 400" {
			row = &rows.Elements[i-1]
		}
	}
	if row == nil || row.Role != model.RoleListItem || row.States.Has(model.StateShowing) {
		t.Fatalf("Row 400's item: %+v", row)
	}
	dd.mustActOn(t, rows.SnapshotID+":"+row.ID, "select")
	dd.eventually(t, kind, "Row 400 is selected", func(s headless.State) bool { return s.SelectedRow == 400 })
}

// mustFind is SNAPSHOT:ELEMENT of insp's element with this role and name.
func mustFind(t *testing.T, insp *model.Inspection, role model.Role, name string) string {
	t.Helper()
	el := find(insp, role, name)
	if el == nil {
		t.Fatalf("no %s %q among %d elements", role, name, len(insp.Elements))
	}
	return insp.SnapshotID + ":" + el.ID
}

// mustActOn does action on target through NATS and fails unless it is done.
func (dd *desktopDaemon) mustActOn(t *testing.T, target, action string) {
	t.Helper()
	if r, err := dd.actTarget(t, action, target, api.ActionRequest{}); err != nil || !r.Done {
		t.Fatalf("%s %s: %+v %v %v", action, target, r, err, model.AsError(err))
	}
}

// The widget factory hides its dialogs when they close and keeps its pages: what an agent met.
func (dd *desktopDaemon) refusalsOnFactory(t *testing.T, bin string) {
	pid := dd.apps[factoryKind].PID
	app := api.AppTarget{PID: pid}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	insp := dd.inspect(t, factoryKind)
	var disabled, enabled *model.Element // Page 1's check boxes "checkbutton": three of six are insensitive
	for i, e := range insp.Elements {
		if e.Role == model.RoleCheckbox && e.Name == "checkbutton" {
			if e.States.Has(model.StateEnabled) {
				enabled = &insp.Elements[i]
			} else {
				disabled = &insp.Elements[i]
			}
		}
	}
	if disabled == nil || enabled == nil {
		t.Fatalf("no disabled and enabled checkbutton among %d elements", len(insp.Elements))
	}
	// Toggling a disabled check box replied "not done" after 5 s; now at once.
	dd.refusedAtOnce(t, bin, "toggle", insp.SnapshotID+":"+disabled.ID, model.CodeElementDisabled, "disabled")

	// Page 2 shows: Page 1's check box is refused.
	press := func(locator string) {
		t.Helper()
		if _, err := dd.client.Act(ctx, "press", api.ActionRequest{Locator: locator, Action: "click", AppTarget: app,
			Expect: &api.WaitRequest{Expr: "element:" + locator + ",state=checked"}}); err != nil {
			t.Fatalf("press %s: %v", locator, err)
		}
	}
	press(`role=radio,name="Page 2"`)
	dd.refusedAtOnce(t, bin, "toggle", insp.SnapshotID+":"+enabled.ID, model.CodeElementHidden, "hidden")

	// Its "Inform" dialog, closed by Cancel, is hidden, not destroyed: its "Do It" is refused.
	if _, err := dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Inform", AppTarget: app,
		Expect: &api.WaitRequest{Expr: "dialog"}}); err != nil {
		t.Fatalf("click Inform: %v", err)
	}
	wins, err := dd.client.Windows(ctx, app)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(wins.Windows, func(w model.Window) bool { return w.Role == model.RoleDialog })
	if i < 0 {
		t.Fatalf("no dialog among %+v", wins.Windows)
	}
	dialog, err := dd.client.Inspect(ctx, api.InspectRequest{AppTarget: app, Window: wins.Windows[i].ID})
	if err != nil {
		t.Fatal(err)
	}
	r, err := dd.actTarget(t, "click", mustFind(t, dialog, model.RoleButton, "Cancel"),
		api.ActionRequest{Expect: &api.WaitRequest{Expr: "window_gone"}})
	if err != nil || r.Expect.Outcome != api.WaitMet {
		t.Fatalf("Cancel with expect window_gone: %+v %v", r, err)
	}
	dd.refusedAtOnce(t, bin, "click", mustFind(t, dialog, model.RoleButton, "Do It"), model.CodeElementHidden, "hidden")
	press(`role=radio,name="Page 1"`)
}

// TestRefusalsBeyondGTK: on the Qt 5 fixture (a disabled button, a dialog that closing hides, a
// tab not shown) and on Chromium (a disabled button; a section or dialog hidden leaves its tree,
// so its elements are refused as gone; content below the fold is acted on).
func TestRefusalsBeyondGTK(t *testing.T) {
	bin := testdaemon.Axbus(t)
	dd := startDaemonWith(t, func(ctx context.Context, dd *desktopDaemon) []int {
		qt, err := dd.session.StartApp(ctx, headless.KindQt5)
		if err != nil {
			t.Fatal(err)
		}
		b, err := dd.session.StartBrowser(ctx, "page.html")
		if err != nil {
			t.Fatal(err)
		}
		dd.apps[headless.KindQt5], dd.browser = qt, b
		return []int{qt.PID, b.PID}
	})
	t.Run("qt5", func(t *testing.T) { dd.refusalsOnQt(t, bin) })
	t.Run("chromium", func(t *testing.T) { dd.refusalsOnChromium(t, bin) })
}

func (dd *desktopDaemon) refusalsOnQt(t *testing.T, bin string) {
	qt := dd.apps[headless.KindQt5]
	app := api.AppTarget{PID: qt.PID}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	insp := dd.inspect(t, headless.KindQt5)
	dd.refusedAtOnce(t, bin, "click", mustFind(t, insp, model.RoleButton, "Off"), model.CodeElementDisabled, "disabled")

	// The dialog closed is hidden: its Apply is refused, and nothing applied; shown again, the
	// same id is pressed.
	open := func() {
		t.Helper()
		if _, err := dd.client.Act(ctx, "click", api.ActionRequest{Locator: "role=button,name=Options", AppTarget: app,
			Expect: &api.WaitRequest{Expr: "window:title=Options"}}); err != nil {
			t.Fatalf("open Options: %v", err)
		}
	}
	open()
	dialog, err := dd.client.Inspect(ctx, api.InspectRequest{AppTarget: app, Window: "Options"})
	if err != nil {
		t.Fatal(err)
	}
	closeID := mustFind(t, dialog, model.RoleButton, "Close")
	if r, err := dd.actTarget(t, "click", closeID, api.ActionRequest{Expect: &api.WaitRequest{Expr: "window_gone"}}); err != nil || r.Expect.Outcome != api.WaitMet {
		t.Fatalf("Close with expect window_gone: %+v %v", r, err)
	}
	applyID := mustFind(t, dialog, model.RoleButton, "Apply")
	dd.refusedAtOnce(t, bin, "click", applyID, model.CodeElementHidden, "hidden")
	open()
	dd.mustActOn(t, applyID, "click")
	if err := qt.WaitOutput(ctx, "APPLIED 1"); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(qt.Output(), "APPLIED 2") {
		t.Fatalf("Apply pressed twice: %q", qt.Output())
	}
	dd.mustActOn(t, closeID, "click")

	// The tab not shown: its check box is refused; shown again, it is checked by the same id.
	insp = dd.inspect(t, headless.KindQt5)
	notify := mustFind(t, insp, model.RoleCheckbox, "Notify me")
	dd.mustActOn(t, mustFind(t, insp, model.RoleTab, "Advanced"), "click")
	dd.refusedAtOnce(t, bin, "check", notify, model.CodeElementHidden, "hidden")
	dd.mustActOn(t, mustFind(t, insp, model.RoleTab, "General"), "click")
	dd.mustActOn(t, notify, "check")
	if err := qt.WaitOutput(ctx, "NOTIFY 1"); err != nil {
		t.Fatal(err)
	}
	if out := qt.Output(); slices.Contains(out, "NOTIFY 0") {
		t.Fatalf("Notify me was toggled while its tab was not shown: %q", out)
	}
}

func (dd *desktopDaemon) refusalsOnChromium(t *testing.T, bin string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dd.dom(t, `document.getElementById('save').disabled = true`)
	insp := dd.page(t)
	save := byID(t, insp, "save")
	if save.States.Has(model.StateEnabled) {
		t.Fatalf("the disabled Save reads %v", save.States)
	}
	dd.refusedAtOnce(t, bin, "click", insp.SnapshotID+":"+save.ID, model.CodeElementDisabled, "disabled")
	dd.dom(t, `document.getElementById('save').disabled = false`)
	res, err := dd.client.Wait(ctx, api.WaitRequest{Expr: "state:" + save.ID + "=enabled", Snapshot: insp.SnapshotID,
		AppTarget: api.AppTarget{PID: dd.browser.PID}, TimeoutMS: 5000})
	if err != nil || res.Outcome != api.WaitMet {
		t.Fatalf("the suggested wait: %+v %v", res, err)
	}
	dd.mustActOn(t, insp.SnapshotID+":"+save.ID, "click")
	dd.domEventually(t, `document.getElementById('messages').textContent`, "Saved")

	// Below the fold is not hidden: a button 3,000 px down is clicked by its id.
	dd.dom(t, `document.body.insertAdjacentHTML('beforeend',
		'<div style="height:3000px"></div><button id="far" type="button" onclick="window.farClicks = (window.farClicks || 0) + 1">Far</button>')`)
	var far *model.Element
	for deadline := time.Now().Add(5 * time.Second); far == nil; {
		insp = dd.page(t)
		if i := slices.IndexFunc(insp.Elements, func(e model.Element) bool { return e.Identifier == "far" }); i >= 0 {
			far = &insp.Elements[i]
		} else if time.Now().After(deadline) {
			t.Fatal("the far button is not in the page's tree")
		}
	}
	if far.States.Has(model.StateShowing) {
		t.Fatalf("the far button shows: %v %+v", far.States, far.Bounds)
	}
	dd.mustActOn(t, insp.SnapshotID+":"+far.ID, "click")
	dd.domEventually(t, `String(window.farClicks)`, "1")

	// A section hidden goes from Chromium's tree with what it holds: its check box is refused as
	// gone (STALE_REF), and stays unchecked.
	remember := insp.SnapshotID + ":" + byID(t, insp, "remember").ID
	res, err = dd.client.WaitAfter(ctx, api.WaitRequest{Expr: "element:role=checkbox,name=\"Remember me\" gone", AppTarget: api.AppTarget{PID: dd.browser.PID}},
		func(context.Context) error { dd.dom(t, `document.getElementById('form').hidden = true`); return nil })
	if err != nil || res.Outcome != api.WaitMet {
		t.Fatalf("the hidden form's check box leaves the tree: %+v %v", res, err)
	}
	dd.refusedAtOnce(t, bin, "check", remember, model.CodeStaleRef, "")
	if got := dd.dom(t, `String(document.getElementById('remember').checked)`); got != "false" {
		t.Fatalf("the hidden check box was checked: %s", got)
	}
	// Shown again, the form's elements are new ones in Chromium's tree: a fresh inspection names them.
	res, err = dd.client.WaitAfter(ctx, api.WaitRequest{Expr: "element:role=checkbox,name=\"Remember me\"", AppTarget: api.AppTarget{PID: dd.browser.PID}},
		func(context.Context) error { dd.dom(t, `document.getElementById('form').hidden = false`); return nil })
	if err != nil || res.Outcome != api.WaitMet {
		t.Fatalf("the form's check box is back: %+v %v", res, err)
	}
	insp = dd.page(t)

	// A dialog closed goes from Chromium's tree with its button: refused as gone.
	dd.mustActOn(t, insp.SnapshotID+":"+byID(t, insp, "open-dialog").ID, "click")
	dd.domEventually(t, `String(document.getElementById('dialog').open)`, "true")
	insp = dd.page(t)
	ok := insp.SnapshotID + ":" + byID(t, insp, "dialog-ok").ID
	res, err = dd.client.WaitAfter(ctx, api.WaitRequest{Expr: "element:role=button,name=OK gone", AppTarget: api.AppTarget{PID: dd.browser.PID}},
		func(context.Context) error { dd.dom(t, `document.getElementById('dialog').close()`); return nil })
	if err != nil || res.Outcome != api.WaitMet {
		t.Fatalf("the dialog's OK leaves the tree: %+v %v", res, err)
	}
	dd.refusedAtOnce(t, bin, "click", ok, model.CodeStaleRef, "")
}
