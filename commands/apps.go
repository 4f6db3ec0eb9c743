package commands

import (
	"context"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// Launch starts an app and answers once it is in the accessibility tree: the app with the
// started process's pid, or a new one of its names when the process handed over. It waits by
// the observer's app_launched events, not by polling. A command (any program) needs an
// admin's role; a desktop entry an agent's.
func (e *Engine) Launch(ctx context.Context, r api.LaunchRequest) (*api.LaunchReply, error) {
	spec := model.LaunchSpec{Entry: r.Entry, Command: r.Command}
	if err := spec.Check(); err != nil {
		return nil, err
	}
	if who := api.IdentityOf(ctx); len(spec.Command) > 0 && who.Role != api.RoleAdmin {
		return nil, model.Errorf(model.CodePermissionDenied, "Launch a desktop entry (entry), or ask an admin to run the command.",
			"%s may not run commands: launching a command needs the admin role", who.Name)
	}
	l, ok := e.o.Backend().(observer.AppLauncher)
	if !ok {
		return nil, model.Errorf(model.CodeNotSupported, "Start the app yourself, then wait for it (axbus wait app:NAME).",
			"this backend cannot launch apps")
	}
	limit := model.DefaultLaunchWait
	if r.TimeoutMS > 0 {
		limit = min(time.Duration(r.TimeoutMS)*time.Millisecond, api.MaxWaitTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	known := map[int]bool{}
	if apps, err := e.o.Apps(ctx); err == nil {
		for _, a := range apps {
			known[a.PID] = true
		}
	}
	launches, stop, err := e.appEvents(model.EventAppLaunched, 0)
	if err != nil {
		return nil, err
	}
	defer stop()
	start := time.Now()
	launched, err := l.Launch(ctx, spec)
	if err != nil {
		return nil, err
	}
	ended := launched.Ended
	for {
		if apps, err := e.o.Apps(ctx); err == nil {
			for _, a := range apps {
				if launched.Owns(a, known[a.PID]) {
					return &api.LaunchReply{App: a, PID: launched.PID, RegisteredMS: ms(time.Since(start))}, nil
				}
			}
		}
		select {
		case <-launches:
		case err, open := <-ended:
			if open && err != nil {
				return nil, model.Errorf(model.CodeActionFailed, "Check the program and its arguments: run it in a terminal to see why.",
					"the launched process (pid %d) ended before its app registered: %v", launched.PID, err)
			}
			ended = nil // it handed over (or ended cleanly): its app may still come
		case <-ctx.Done():
			return nil, model.Errorf(model.CodeTimeout,
				"The app may not expose an accessibility tree (check it with axbus doctor), or be slow to start: give a longer timeout_ms.",
				"the launched process (pid %d) has no app in the accessibility tree after %v", launched.PID, limit).With("pid", launched.PID)
		}
	}
}

// Quit ends an app, unless another identity holds its lease: as its user would (its windows
// closed) or, with force, at once; the answer comes with its app_terminated event. An app
// still running after the timeout (it may be asking to save) is ACTION_FAILED.
func (e *Engine) Quit(ctx context.Context, r api.QuitRequest) (*api.QuitReply, error) {
	l, ok := e.o.Backend().(observer.AppLauncher)
	if !ok {
		return nil, model.Errorf(model.CodeNotSupported, "Quit the app from its menu (press its Quit item).", "this backend cannot quit apps")
	}
	app, err := e.o.FindApp(ctx, r.Query())
	if err != nil {
		return nil, err
	}
	if e.leases != nil {
		if err := e.leases.Check(api.IdentityOf(ctx), app, ""); err != nil {
			return nil, err
		}
	}
	limit := model.QuitWait
	if r.TimeoutMS > 0 {
		limit = min(time.Duration(r.TimeoutMS)*time.Millisecond, api.MaxWaitTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	ended, stop, err := e.appEvents(model.EventAppTerminated, app.PID)
	if err != nil {
		return nil, err
	}
	defer stop()
	start := time.Now()
	if err := l.Quit(ctx, app, r.Force); err != nil {
		return nil, err
	}
	for {
		if _, err := e.o.FindApp(ctx, model.AppQuery{PID: app.PID}); model.CodeOf(err) == model.CodeAppNotFound {
			return &api.QuitReply{App: app.Ref(), Forced: r.Force, EndedMS: ms(time.Since(start))}, nil
		}
		select {
		case <-ended:
		case <-ctx.Done():
			suggestion := "It may be asking to save: inspect it and answer, or quit with force."
			if r.Force {
				suggestion = "Check the process (ps); it may belong to another user."
			}
			return nil, model.Errorf(model.CodeActionFailed, suggestion, "%s (pid %d) still runs after %v", app.Name, app.PID, limit)
		}
	}
}

// appEvents delivers a poke for each event of type kind (of app pid, or any app with 0),
// until stop.
func (e *Engine) appEvents(kind model.EventType, pid int) (<-chan struct{}, func(), error) {
	poke := make(chan struct{}, 1)
	tok, err := e.o.Subscribe(func(ev model.Event) {
		if ev.Type == kind && (pid == 0 || ev.App.PID == pid) {
			select {
			case poke <- struct{}{}:
			default:
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return poke, func() { e.o.Unsubscribe(tok) }, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
