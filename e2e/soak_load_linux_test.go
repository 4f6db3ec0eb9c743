package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testdaemon"
)

// counters are each agent's last value set, for waits on a value an agent sets later.
var counters [soakAgents]atomic.Int64

// act is agent i's loop: set the Name field of its fixture to a value of its own, proven by an
// expect; now and then toggle Remember me (by a click on GTK4, holding the input lease), or hold the app's lease for a moment (the others are
// refused LEASE_HELD meanwhile).
func (s *soakRun) act(i int, a *soakIdentity) {
	app, policy := api.AppTarget{PID: s.gtk3.PID}, ""
	if i%2 == 1 { // a GTK4 check box has no accessible action: toggled by a click
		app, policy = api.AppTarget{PID: s.gtk4.PID}, api.PolicyPhysical
	}
	for n := 1; s.pause(time.Duration(150+rand.IntN(350)) * time.Millisecond); n++ {
		s.watchdog.Beat(a.name)
		switch {
		case n%7 == 0:
			s.track("lease", 15*time.Second, func(ctx context.Context) error {
				if _, err := a.client.Lease(ctx, api.LeaseRequest{Op: api.LeaseAcquire, AppTarget: app, TTLMS: 2000}); err != nil {
					return err
				}
				_, err := a.client.Act(ctx, "toggle", api.ActionRequest{AppTarget: app, Locator: `role=checkbox,name="Remember me"`, Policy: policy})
				_, rerr := a.client.Lease(ctx, api.LeaseRequest{Op: api.LeaseRelease, AppTarget: app})
				return cmpErr(err, rerr)
			})
		default:
			value := fmt.Sprintf("%s %d", a.name, n)
			s.track("set_value", api.ChainDeadline+5*time.Second, func(ctx context.Context) error {
				_, err := a.client.Act(ctx, "set_value", api.ActionRequest{AppTarget: app, Locator: "role=text_field,name=Name",
					Value: value, Expect: &api.WaitRequest{Expr: fmt.Sprintf("value:%q", value), TimeoutMS: 3000}})
				return err
			})
			counters[i].Store(int64(n))
		}
	}
}

// waits keeps soakPendingWaits waits pending: most on a value an agent sets soon (met), some
// on one nobody sets (they time out).
func (s *soakRun) waits() {
	slots := make(chan struct{}, soakPendingWaits)
	for n := 0; ; n++ {
		select {
		case slots <- struct{}{}:
		case <-s.ctx.Done():
			return
		}
		s.watchdog.Beat("waits")
		i := n % soakAgents
		agent, app := s.agents[i], s.gtk3.PID
		if i%2 == 1 {
			app = s.gtk4.PID
		}
		expr := fmt.Sprintf(`value:role=text_field,name=Name,value=%q`, fmt.Sprintf("%s %d", agent.name, counters[i].Load()+int64(1+rand.IntN(8))))
		timeout := 10 * time.Second
		if n%4 == 0 { // a value nobody sets
			expr, timeout = `value:role=text_field,name=Name,value="nobody sets this"`, time.Duration(2+rand.IntN(4))*time.Second
		}
		s.wg.Add(1)
		go func() {
			defer func() { <-slots; s.wg.Done() }()
			s.track("wait", timeout+5*time.Second, func(ctx context.Context) error {
				_, err := agent.client.Wait(ctx, api.WaitRequest{Expr: expr, AppTarget: api.AppTarget{PID: app}, TimeoutMS: int(timeout.Milliseconds())})
				if model.CodeOf(err) == model.CodeUnavailable {
					s.pause(200 * time.Millisecond) // the daemon restarting: an agent would not ask again at once
				}
				return err
			})
		}()
	}
}

// churn opens and closes apps all along: a GTK3 fixture every soakChurnEvery, acted on once,
// then ended by the daemon's quit, by its own window closing, or killed (SIGKILL) in the middle
// of an action.
func (s *soakRun) churn() {
	admin := s.owner
	for n := 0; s.pause(time.Until(s.start.Add(time.Duration(n+1) * soakChurnEvery))); n++ { // on a schedule, whatever each took
		s.watchdog.Beat("churn")
		ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
		app, err := s.sess.StartApp(ctx, headless.KindGTK3)
		cancel()
		if err != nil {
			if s.ctx.Err() == nil {
				s.t.Errorf("soak %v: churn: start an app: %v", s.elapsed().Round(time.Second), err)
			}
			return
		}
		s.churned.Add(1)
		s.watchdog.Beat("churn")
		target := api.AppTarget{PID: app.PID}
		click := func(ctx context.Context) error {
			_, err := admin.client.Act(ctx, "click", api.ActionRequest{AppTarget: target, Locator: "role=button,name=Save"})
			return err
		}
		switch n % 3 {
		case 0: // quit as a person would: Save's dialog answered first (a modal dialog keeps the app up)
			s.track("click", api.ChainDeadline+5*time.Second, func(ctx context.Context) error {
				_, err := admin.client.Act(ctx, "click", api.ActionRequest{AppTarget: target, Locator: "role=button,name=Save",
					Expect: &api.WaitRequest{Expr: "dialog", TimeoutMS: 5000}})
				return err
			})
			s.track("click", api.ChainDeadline+5*time.Second, func(ctx context.Context) error {
				_, err := admin.client.Act(ctx, "click", api.ActionRequest{AppTarget: target, Locator: `dialog:title=Saved >> role=button,name=OK`,
					Expect: &api.WaitRequest{Expr: "window_gone", TimeoutMS: 5000}})
				return err
			})
			s.track("quit", model.QuitWait+10*time.Second, func(ctx context.Context) error {
				_, err := admin.client.Quit(ctx, api.QuitRequest{AppTarget: target})
				return err
			})
		case 1: // quit with force
			s.track("click", api.ChainDeadline+5*time.Second, click)
			s.track("quit", model.QuitWait+10*time.Second, func(ctx context.Context) error {
				_, err := admin.client.Quit(ctx, api.QuitRequest{AppTarget: target, Force: true})
				return err
			})
		default: // killed while an action is under way
			done := make(chan struct{})
			go func() { defer close(done); s.track("click", api.ChainDeadline+5*time.Second, click) }()
			time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond) // somewhere in the action: the kill's moment is the subject
			_ = app.Kill()
			<-done
		}
		s.watchdog.Beat("churn")
		_ = app.Kill() // whatever the quit did
		_ = app.Wait()
	}
}

// mcp calls the MCP server (the built binary, over stdio) now and then: apps, an inspection
// of the GTK3 fixture, a short wait.
func (s *soakRun) mcp() {
	session, _ := testdaemon.MCPClient(s.t, axbus, "--state-dir", s.daemon.dir)
	for n := 0; s.pause(2 * time.Second); n++ {
		s.watchdog.Beat("mcp")
		start := time.Now()
		var r any
		switch n % 3 {
		case 0:
			r = testdaemon.CallTool(s.t, session, "list_apps", map[string]any{})
		case 1:
			r = testdaemon.CallTool(s.t, session, "inspect", map[string]any{"pid": s.gtk3.PID})
		default:
			r = testdaemon.CallTool(s.t, session, "wait_for", map[string]any{"pid": s.gtk4.PID, "condition": `element:role=button,name=Save`, "timeout_ms": 2000})
		}
		s.ledger.note("mcp", r != nil, time.Since(start), 30*time.Second, nil)
	}
}

// cmpErr is the first error of errs.
func cmpErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
