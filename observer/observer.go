package observer

import (
	"context"
	"strings"
	"time"

	"github.com/axbus/axbus/model"
)

// Observer is the platform-neutral face of a desktop: apps with generations, windows,
// inspections into a snapshot store, and its subscribers' normalised events.
type Observer struct {
	backend Backend
	store   *Store
	gens    *generations
	subs    *Sinks // their source is the backend's watch
	now     func() time.Time
}

// Token identifies one subscription to an Observer's events.
type Token uint64

// Option configures an Observer.
type Option func(*Observer)

// WithStore replaces the default snapshot store.
func WithStore(s *Store) Option { return func(o *Observer) { o.store = s } }

// WithClock replaces the wall clock (tests).
func WithClock(now func() time.Time) Option { return func(o *Observer) { o.now = now } }

// New returns an Observer over backend.
func New(backend Backend, opts ...Option) *Observer {
	o := &Observer{backend: backend, gens: newGenerations(), now: time.Now}
	for _, opt := range opts {
		opt(o)
	}
	if o.store == nil {
		o.store = NewStore(DefaultStoreLimits(), o.now)
	}
	o.subs = NewSinks(o.watch)
	return o
}

// Backend returns the platform backend.
func (o *Observer) Backend() Backend { return o.backend }

// Store returns the snapshot store.
func (o *Observer) Store() *Store { return o.store }

// Now is the observer's clock: the wall clock, or WithClock's.
func (o *Observer) Now() time.Time { return o.now() }

// Subscribe delivers every normalised event to fn until the token is unsubscribed. fn must not
// block. The backend is watched while at least one subscriber is present.
func (o *Observer) Subscribe(fn func(model.Event)) (Token, error) {
	id, err := o.subs.Subscribe(fn)
	return Token(id), err
}

// Unsubscribe ends a subscription; the last one ends the backend's watch before it returns.
func (o *Observer) Unsubscribe(t Token) { o.subs.Unsubscribe(int(t)) }

// watch starts the backend's watch with events stamped with their app's generation, and the
// changes to secure fields coalesced and stripped (secureGate).
func (o *Observer) watch(sink func(model.Event)) (func(), error) {
	gate := newSecureGate(sink, o.now)
	stop, err := o.backend.Watch(func(e model.Event) {
		if e.Time.IsZero() {
			e.Time = o.now()
		}
		if e.App.PID > 0 {
			if e.Type == model.EventAppLaunched {
				e.App.Generation = o.gens.launched(e.App.PID, e.Instance)
			} else {
				e.App.Generation = o.gens.of(e.App.PID, "")
			}
		}
		gate.deliver(e)
	})
	if err != nil {
		return nil, err
	}
	return func() { stop(); gate.close() }, nil
}

// Apps lists the running apps with their generations.
func (o *Observer) Apps(ctx context.Context) ([]model.App, error) {
	apps, err := o.backend.Apps(ctx)
	if err != nil {
		return nil, model.AsError(err)
	}
	for i := range apps {
		apps[i].Generation = o.gens.of(apps[i].PID, apps[i].Instance)
	}
	return apps, nil
}

// FindApp resolves q to one running app.
func (o *Observer) FindApp(ctx context.Context, q model.AppQuery) (model.App, error) {
	if q.PID <= 0 && strings.TrimSpace(q.Name) == "" {
		return model.App{}, model.Errorf(model.CodeBadRequest, `Name the app with "app" (a name from axbus apps) or "pid".`,
			"no app given")
	}
	apps, err := o.Apps(ctx)
	if err != nil {
		return model.App{}, err
	}
	if q.PID > 0 {
		for _, a := range apps {
			if a.PID == q.PID {
				if q.Name != "" && !strings.EqualFold(a.Name, q.Name) {
					return model.App{}, model.Errorf(model.CodeAppNotFound, "Give the pid or the name alone, or check them with axbus apps.",
						"pid %d is %q, not %q", q.PID, a.Name, q.Name).With("pid", q.PID)
				}
				return a, nil
			}
		}
		return model.App{}, appNotFound(q, apps)
	}
	name := strings.ToLower(strings.TrimSpace(q.Name))
	for _, match := range []func(model.App) bool{
		func(a model.App) bool { return strings.ToLower(a.Name) == name || strings.ToLower(a.ID) == name },
		func(a model.App) bool { return strings.HasPrefix(strings.ToLower(a.Name), name) },
		func(a model.App) bool { return strings.Contains(strings.ToLower(a.Name), name) },
	} {
		var found []model.App
		for _, a := range apps {
			if match(a) {
				found = append(found, a)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1:
			pids := make([]int, len(found))
			for i, a := range found {
				pids[i] = a.PID
			}
			return model.App{}, model.Errorf(model.CodeAppAmbiguous, "Name the app by pid instead (see axbus apps).",
				"%d apps match %q", len(found), q.Name).With("pids", pids)
		}
	}
	return model.App{}, appNotFound(q, apps)
}

func appNotFound(q model.AppQuery, apps []model.App) *model.Error {
	names := make([]string, 0, len(apps))
	for _, a := range apps {
		names = append(names, a.Name)
	}
	return model.Errorf(model.CodeAppNotFound, "Run axbus apps to see the running apps; start the app first if it is not there.",
		"no running app matches %s", q).With("running", names)
}

// Windows lists the windows of the app q names.
func (o *Observer) Windows(ctx context.Context, q model.AppQuery) (model.App, []model.Window, error) {
	app, err := o.FindApp(ctx, q)
	if err != nil {
		return model.App{}, nil, err
	}
	wins, err := o.backend.Windows(ctx, app.PID)
	if err != nil {
		return app, nil, model.AsError(err)
	}
	return app, wins, nil
}

// Window is the app q names and its window named want, as PickWindow chooses it.
func (o *Observer) Window(ctx context.Context, q model.AppQuery, want string) (model.App, model.Window, error) {
	app, wins, err := o.Windows(ctx, q)
	if err != nil {
		return model.App{}, model.Window{}, err
	}
	win, err := PickWindow(app, wins, want)
	return app, win, err
}

// PickWindow chooses the window named by id or title (exact, else a unique substring), or else
// the focused one, or else the first.
func PickWindow(app model.App, wins []model.Window, want string) (model.Window, error) {
	if len(wins) == 0 {
		return model.Window{}, model.Errorf(model.CodeWindowNotFound, "The app has no window yet: wait for one (axbus wait 'window:title~...') and inspect again.",
			"%s (pid %d) has no window", app.Name, app.PID).With("pid", app.PID)
	}
	if want == "" {
		for _, w := range wins {
			if w.Focused {
				return w, nil
			}
		}
		return wins[0], nil
	}
	for _, w := range wins {
		if w.ID == want {
			return w, nil
		}
	}
	lw := strings.ToLower(want)
	var found []model.Window
	for _, w := range wins {
		if strings.EqualFold(w.Title, want) {
			return w, nil
		}
		if strings.Contains(strings.ToLower(w.Title), lw) {
			found = append(found, w)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	titles := make([]string, len(wins))
	for i, w := range wins {
		titles[i] = w.ID + " " + w.Title
	}
	return model.Window{}, model.Errorf(model.CodeWindowNotFound, "Name the window by id or by its exact title (see axbus windows).",
		"no single window of %s matches %q", app.Name, want).With("windows", titles)
}
