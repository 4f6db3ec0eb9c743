package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
	"github.com/nats-io/nats.go"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/internal/x11"
	"github.com/axbus/axbus/internal/xauth"
)

// A person's session recorded on the GTK3 fixture (issue 36): the input comes from outside
// axbus, through XTEST as a person's mouse and keyboard would make it: check Remember me, type
// a name and a password, press Save, answer the dialog. The flow names every element by a
// locator, has the name as a value and the password only as a parameter (the password is
// nowhere: not in the flow, the bus or the daemon's log). Replayed on a freshly started fixture,
// with the password given, every step is met and the app (its own account) has it all.
func TestRecordAPersonOnGTK3(t *testing.T) {
	const kind = headless.KindGTK3
	const secret = "hunter2-Person-Passw0rd"
	dd := startDesktopDaemon(t, kind)
	app := dd.apps[kind]
	ctx := testkit.Context(t, 2*time.Minute)
	var bus testkit.Buffer // what the bus carries beside the events and diffs dd keeps
	for _, subject := range []string{dd.Subjects.AllActions(), dd.Subjects.AllFlows()} {
		if _, err := dd.nc.Subscribe(subject, func(m *nats.Msg) { _, _ = bus.Write(m.Data) }); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := dd.client.Record(ctx, api.RecordRequest{Op: "start", Person: true, Name: "person"})
	if err != nil {
		t.Fatal(err)
	}
	x, err := x11.Dial(dd.session.Display, dd.session.XAuthority)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	click := func(window string, role model.Role, name string) {
		t.Helper()
		insp, err := dd.client.Inspect(ctx, api.InspectRequest{AppTarget: api.AppTarget{PID: app.PID}, Window: window})
		if err != nil {
			t.Fatal(err)
		}
		el := find(insp, role, name)
		if el == nil || el.Bounds == nil {
			t.Fatalf("no %s %q with bounds to click", role, name)
		}
		b := el.Bounds
		press(t, dd.session, int16(b.X+b.W/2), int16(b.Y+b.H/2))
	}
	typeText := func(s string) {
		t.Helper()
		var strokes []x11.Keystroke
		for _, r := range s {
			strokes = append(strokes, x11.Keystroke{Key: uint32(r)})
		}
		if err := x.Tap(ctx, app.PID, strokes); err != nil {
			t.Fatal(err)
		}
	}
	had := dd.state(t, kind).PasswordLen // the fixture's field starts with a password of its own: typing appends
	click("", model.RoleCheckbox, "Remember me")
	dd.eventually(t, kind, "the box not checked by the click", func(s headless.State) bool { return s.Remember })
	click("", model.RoleTextField, "Name")
	dd.eventually(t, kind, "the Name field not focused", func(s headless.State) bool { return s.Focus == "Name" })
	typeText("Ada")
	dd.eventually(t, kind, "the name not typed", func(s headless.State) bool { return s.Name == "Ada" })
	click("", model.RolePassword, "Password")
	dd.eventually(t, kind, "the Password field not focused", func(s headless.State) bool { return s.Focus == "Password" })
	typeText(secret)
	dd.eventually(t, kind, "the password not typed", func(s headless.State) bool { return s.PasswordLen == had+len(secret) })
	click("", model.RoleButton, "Save")
	dd.eventually(t, kind, "no dialog after Save", func(s headless.State) bool { return s.DialogOpen })
	click("Saved", model.RoleButton, "OK")
	dd.eventually(t, kind, "the dialog not answered", func(s headless.State) bool { return !s.DialogOpen })

	stopped, err := dd.client.Record(ctx, api.RecordRequest{Op: "stop", Recording: rec.Recording})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.MarshalIndent(stopped.Flow, "", "  ")
	t.Logf("the person's flow:\n%s", raw)
	var got []string
	for _, s := range stopped.Flow.Steps {
		got = append(got, strings.TrimSpace(s.Action+" "+s.Locator+" "+s.Value+" "+s.Policy)+" | "+s.Expect)
	}
	want := []string{
		`check role=checkbox,name="Remember me" | state:checked`,
		`focus role=text_field,name=Name | `,
		`type role=text_field,name=Name Ada | value:"Ada"`,
		`focus role=password_field,name=Password | `,
		`type role=password_field,name=Password ${secret:password} physical | `,
	}
	if len(got) != 7 || strings.Join(got[:5], "\n") != strings.Join(want, "\n") ||
		!strings.HasPrefix(got[5], "click role=button,name=Save | dialog") || !strings.HasSuffix(got[6], "| window_gone") {
		t.Errorf("the steps:\n%s\nwant the first five\n%s\nthen Save proven by its dialog and OK by the dialog gone", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for where, text := range map[string]string{"the flow": string(raw), "the daemon's log": dd.log.String(), "the bus": bus.String() + dd.eventsText()} {
		if strings.Contains(text, secret) {
			t.Errorf("the password is in %s", where)
		}
	}

	fresh := startDesktopDaemon(t, kind)
	run, err := fresh.client.Replay(ctx, api.ReplayRequest{Flow: *stopped.Flow, Vars: map[string]string{"password": secret}})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome != api.FlowMet {
		t.Fatalf("the replay: %+v, failure %+v", run.Steps, run.Failure)
	}
	st := fresh.eventually(t, kind, "the replay's effects", func(s headless.State) bool {
		return s.Remember && s.Name == "Ada" && s.PasswordLen == had+len(secret) && s.Saves == 1 && !s.DialogOpen
	})
	t.Logf("replayed in %.0f ms: %+v; the app: %+v", run.ElapsedMS, run.Steps, st)
}

// eventsText is every event and diff the daemon published so far, as one text.
func (dd *desktopDaemon) eventsText() string {
	dd.eventsMu.Lock()
	defer dd.eventsMu.Unlock()
	var b strings.Builder
	for _, e := range dd.allEvents {
		b.Write(e)
	}
	return b.String()
}

// press is a person's click at (px, py): the pointer moved there, the button pressed, held a
// moment as a finger does, and released, through XTEST on a connection of its own.
func press(t *testing.T, s *headless.Session, px, py int16) {
	t.Helper()
	c, err := xauth.Dial(s.Display, s.XAuthority)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := xtest.Init(c); err != nil {
		t.Fatal(err)
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	fake := func(kind byte, detail byte, x, y int16) {
		if err := xtest.FakeInputChecked(c, kind, detail, 0, root, x, y, 0).Check(); err != nil {
			t.Fatal(err)
		}
	}
	fake(xproto.MotionNotify, 0, px, py)
	fake(xproto.ButtonPress, 1, 0, 0)
	time.Sleep(80 * time.Millisecond) // the finger's hold is the subject: an app acts on the release
	fake(xproto.ButtonRelease, 1, 0, 0)
}
