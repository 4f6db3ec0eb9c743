package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/atspi"
)

// matrixRun is one app's scenario in one order.
type matrixRun struct {
	t     *testing.T
	m     *matrix
	d     *testDaemon
	a     *matrixApp
	order order
	app   *headless.App
}

// step runs capability c.
func (r *matrixRun) step(ctx context.Context, c capability) (string, error) {
	switch c {
	case capApps:
		return r.appears(ctx)
	case capInspect:
		return r.a.steps.inspect(r)
	case capType:
		return r.a.steps.typeText(r)
	case capRead:
		return r.a.steps.read(r)
	case capClick:
		return r.recorded(func() (string, error) { return r.a.steps.click(r) })
	case capWait:
		return r.a.steps.wait(r)
	case capConverge:
		return r.converges(ctx)
	case capQuit:
		return r.quit()
	}
	return "", fmt.Errorf("no step %s", c)
}

// cli runs an axbus command line on the app (--pid after the command's arguments) and decodes
// its JSON reply into T; a non-zero exit is an error holding what it printed.
func matrixCLI[T any](r *matrixRun, args ...string) (*T, error) {
	args = append(args, "--pid", strconv.Itoa(r.app.PID), "--json")
	out, errOut, code := r.d.cli(r.t, args...)
	if code != 0 {
		return nil, fmt.Errorf("axbus %s: exit %d: %s", args[0], code, strings.TrimSpace(firstLine(errOut+out)))
	}
	var v T
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return nil, fmt.Errorf("axbus %s: %v: %s", args[0], err, firstLine(out))
	}
	return &v, nil
}

// act runs an action command line and checks that it was done, its expect met and, with one,
// that the reply says the action was confirmed.
func (r *matrixRun) act(args ...string) (*api.ActionReply, error) {
	reply, err := matrixCLI[api.ActionReply](r, args...)
	if err != nil {
		return nil, err
	}
	if !reply.Done || (reply.Expect != nil && reply.Expect.Outcome != api.WaitMet) {
		return reply, fmt.Errorf("axbus %s: done %v, expect %+v", args[0], reply.Done, reply.Expect)
	}
	// What it caused (issue 36), on every toolkit: an action its expect proved is confirmed.
	if reply.Expect != nil && reply.Disposition != api.EffectConfirmed {
		return reply, fmt.Errorf("axbus %s: its expect met (%+v), yet %q with effects %+v", args[0], reply.Expect.Trigger, reply.Disposition, reply.Effects)
	}
	return reply, nil
}

// recorded runs step as a recording of the actions it does (issue 36: an agent's session
// recorded on every toolkit): each action must become a step with a locator (a key step may
// have none) and the recording's steps an expect.
func (r *matrixRun) recorded(step func() (string, error)) (string, error) {
	out, errOut, code := r.d.cli(r.t, "record", "start", "--name", "matrix", "--json")
	var start api.RecordReply
	if code != 0 || json.Unmarshal([]byte(out), &start) != nil {
		return "", fmt.Errorf("record start: exit %d: %s", code, firstLine(errOut+out))
	}
	note, err := step()
	out, errOut, code = r.d.cli(r.t, "record", "stop", start.Recording, "--json")
	var flow api.Flow // what stop prints
	if code != 0 || json.Unmarshal([]byte(out), &flow) != nil {
		return note, fmt.Errorf("record stop: exit %d: %s", code, firstLine(errOut+out))
	}
	if err != nil {
		return note, err
	}
	expects := 0
	for i, s := range flow.Steps {
		if s.Locator == "" && s.Action != "key" {
			return note, fmt.Errorf("the recording's step %d (%s) has no locator: %+v", i+1, s.Action, s)
		}
		if s.Expect != "" {
			expects++
		}
	}
	if len(flow.Steps) == 0 || expects == 0 {
		return note, fmt.Errorf("the recording of the click step has %d steps, %d with an expect: %+v", len(flow.Steps), expects, flow.Steps)
	}
	return note, nil
}

// appears: the app is listed by apps.
func (r *matrixRun) appears(ctx context.Context) (string, error) {
	apps, err := r.d.Observer.Apps(ctx)
	if err != nil {
		return "", err
	}
	if !slices.ContainsFunc(apps, func(a model.App) bool { return a.PID == r.app.PID }) {
		return "", fmt.Errorf("pid %d is not in apps (%d apps)", r.app.PID, len(apps))
	}
	return "", nil
}

// find inspects the app for locator and returns the one element it matches.
func (r *matrixRun) find(locator string) (*model.Inspection, *model.Element, error) {
	insp, err := matrixCLI[model.Inspection](r, "inspect", "--find", locator)
	if err != nil {
		return nil, nil, err
	}
	if len(insp.Elements) != 1 {
		return insp, nil, fmt.Errorf("inspect --find %s: %d elements, want 1", locator, len(insp.Elements))
	}
	return insp, &insp.Elements[0], nil
}

// pressable finds the one element locator matches, and its press-like action as inspect lists it.
func (r *matrixRun) pressable(locator string) (*model.Element, string, error) {
	_, el, err := r.find(locator)
	if err != nil {
		return nil, "", err
	}
	action, err := pressName(el)
	return el, action, err
}

// pressName is the element's press-like action as inspect lists it: a name, not a key binding or
// a description (Firefox's action tuple gave ";;").
func pressName(el *model.Element) (string, error) {
	for _, a := range el.Actions {
		switch strings.ToLower(a) {
		case "click", "press", "activate", "toggle", "check", "uncheck", "dodefault", "jump", "open", "select":
			return a, nil
		}
	}
	return "", fmt.Errorf("%s %q lists no press action: %q", el.Role, el.Name, el.Actions)
}

// readText is the app's window read as text.
func (r *matrixRun) readText() (string, error) {
	res, err := matrixCLI[model.ReadResult](r, "read")
	if err != nil {
		return "", err
	}
	return res.Text, nil
}

// holds checks that text holds every want.
func holds(text string, want ...string) error {
	for _, w := range want {
		if !strings.Contains(text, w) {
			return fmt.Errorf("the text lacks %q (%d lines)", w, strings.Count(text, "\n")+1)
		}
	}
	return nil
}

// waitAfter arms a wait for cond on the app, then runs trigger, and checks that the wait is met.
func (r *matrixRun) waitAfter(cond string, trigger func() error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := r.client().WaitAfter(ctx, api.WaitRequest{Expr: cond, AppTarget: api.AppTarget{PID: r.app.PID}, TimeoutMS: 20000},
		func(context.Context) error { return trigger() })
	if err != nil {
		return err
	}
	if res.Outcome != api.WaitMet {
		return fmt.Errorf("wait %s: %s", cond, res.Outcome)
	}
	return nil
}

func (r *matrixRun) client() *client.Client { return testdaemon.Client(r.t, r.d.Connect(r.t)) }

// converges: the daemon's inspect of the app's window, from what its backend keeps, equals a
// fresh backend's (no watch, nothing kept) within one re-read period: whatever events were
// missed (the restarted daemon loses every third), what the daemon says converges to what the app
// says.
func (r *matrixRun) converges(ctx context.Context) (string, error) {
	fresh, err := atspi.Open(ctx, atspi.WithSessionBus(r.m.session.SessionBus), atspi.WithA11yBus(r.m.session.A11yBus),
		atspi.WithDisplay(r.m.session.Display), atspi.WithXAuthority(r.m.session.XAuthority))
	if err != nil {
		return "", err
	}
	defer fresh.Close()
	o := observer.New(fresh)
	var diff string
	var failed error
	if testkit.Within(convergeWithin, func() bool {
		ours, err := matrixCLI[model.Inspection](r, "inspect")
		if err != nil {
			failed = err
			return true
		}
		theirs, err := o.Inspect(ctx, observer.InspectRequest{App: model.AppQuery{PID: r.app.PID}, Window: ours.Window.ID})
		if err != nil {
			failed = err
			return true
		}
		diff = listingDiff(ours, theirs)
		return diff == ""
	}) {
		return "", failed
	}
	return "", fmt.Errorf("after %v the daemon's inspect still differs from a fresh read: %s", convergeWithin, diff)
}

// convergeWithin is one re-read period and then some: what events keep is trusted 2 s after
// the app last said it all, and a wait's copy is re-read whole within 4 s.
const convergeWithin = 6 * time.Second

// listingDiff says the first difference between two inspections of one window, "" when alike:
// the same elements in the same order with the same role, name, value, text, states and children.
func listingDiff(a, b *model.Inspection) string {
	if len(a.Elements) != len(b.Elements) {
		return fmt.Sprintf("%d elements against %d", len(a.Elements), len(b.Elements))
	}
	for i := range a.Elements {
		x, y := &a.Elements[i], &b.Elements[i]
		if x.Role != y.Role || x.Name != y.Name || x.Text != y.Text || deref(x.Value) != deref(y.Value) ||
			x.States != y.States || x.Children != y.Children || x.Depth != y.Depth {
			return fmt.Sprintf("element %d: %s %q %q %q %v %d against %s %q %q %q %v %d", i,
				x.Role, x.Name, deref(x.Value), x.Text, x.States, x.Children, y.Role, y.Name, deref(y.Value), y.Text, y.States, y.Children)
		}
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}

// quitAsker is a scenario whose app asks something when it quits (save the document?), which
// duringQuit answers as its user would.
type quitAsker interface {
	duringQuit(r *matrixRun) error
}

// quit: the app quits as its user would quit it, answered once it has ended, and is gone from apps.
func (r *matrixRun) quit() (string, error) {
	asked := make(chan error, 1)
	if q, ok := r.a.steps.(quitAsker); ok {
		go func() { asked <- q.duringQuit(r) }()
	} else {
		asked <- nil
	}
	if _, err := matrixCLI[api.QuitReply](r, "quit", "--for", "20s"); err != nil {
		return "", err
	}
	if err := <-asked; err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := r.appears(ctx); err == nil {
		return "", fmt.Errorf("pid %d still in apps after quit", r.app.PID)
	}
	return "", nil
}
