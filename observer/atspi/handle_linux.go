//go:build linux

package atspi

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/cenkalti/backoff/v4"
)

// Tuning of event handling.
const (
	focusDedupe      = 250 * time.Millisecond // GTK4 reports a focus change twice (focus: and state-changed:focused)
	launchRetries    = 8                      // an app may not answer yet when it registers
	launchRetryDelay = 100 * time.Millisecond
)

// launchBackOff paces the looks at a newly registered app: at most launchRetries of them,
// launchRetryDelay apart, while ctx lasts.
func launchBackOff(ctx context.Context) backoff.BackOff {
	return backoff.WithContext(backoff.WithMaxRetries(backoff.NewConstantBackOff(launchRetryDelay), launchRetries-1), ctx)
}

// errNotYet is a look at a new app that did not find what it looks for yet: look again.
var errNotYet = errors.New("atspi: not there yet")

// handle does one job; it reports true when the app is gone and the worker should end.
func (wk *appWorker) handle(ctx context.Context, j job) bool {
	b := wk.w.b
	switch j.kind {
	case jobGone:
		if j.app != nil {
			wk.w.deliver(model.Event{Time: j.at, App: j.app.ref(), Type: model.EventAppTerminated, Raw: j.rawName,
				Detail: map[string]any{"bus": wk.bus}})
		}
		return true
	case jobLaunched:
		wk.launched(ctx, j)
		return false
	case jobRegisteredAgain:
		wk.registeredAgain(ctx, j)
		return false
	case jobPoll:
		wk.recheck(ctx)
		return false
	}
	if !wk.windowsInit {
		wk.initWindows(ctx)
	}
	t, detail, ok := Classify(j.raw)
	if !ok {
		return false
	}
	app := wk.appInfo(ctx)
	if app == nil {
		return false
	}
	ref := eventRef(j)
	rawName := j.raw.Name()
	var prevName string
	havePrev := false
	switch t {
	case model.EventFocusChanged:
		if wk.lastFocus.ref == ref && j.at.Sub(wk.lastFocus.at) < focusDedupe {
			return false
		}
		wk.lastFocus = focusMark{ref: ref, at: j.at}
	case model.EventStateChanged:
		wk.seen[ref] |= seenState
		if i, ok := StateNumber(j.raw.mainKind()); ok {
			if t := wk.lastAnnounced(ref); t.mask.has(i) && t.states.has(i) == (j.raw.D1 != 0) {
				return false // no change: the toolkit repeats itself
			}
			wk.remember(ref, func(t *announced) {
				t.mask = t.mask.with(i, true)
				t.states = t.states.with(i, j.raw.D1 != 0)
			})
		}
	case model.EventTitleChanged:
		wk.seen[ref] |= seenName
		if t := wk.lastAnnounced(ref); t.haveName {
			prevName, havePrev = t.name, true
		}
	case model.EventValueChanged:
		wk.seen[ref] |= seenValue
	case model.EventChildrenChanged:
		wk.seen[ref] |= seenChildren
	case model.EventElementDestroyed:
		delete(wk.announced, ref)
		wk.destroyed(ctx, app, ref, rawName, j.at)
		return false
	}
	node := wk.eventSummary(ctx, t, j, ref)
	if t == model.EventTitleChanged && node != nil {
		if havePrev && node.Name == prevName {
			return false // the name did not change
		}
		wk.remember(ref, func(t *announced) { t.name, t.haveName = node.Name, true })
	}
	if t == model.EventWindowCreated || t == model.EventWindowClosed {
		role := uint32(roleFrame)
		if node != nil {
			role, _ = RoleNumber(node.PlatformRole)
		} else if ri, ok := b.cache.get(ref); ok && ri.haveRole {
			role = ri.role
		}
		t = refineType(t, role)
		if t == model.EventWindowCreated || t == model.EventDialogOpened || t == model.EventMenuOpened {
			if _, known := wk.windows[ref]; known {
				return false // announced already (children-changed on the root came first)
			}
			title := ""
			if node != nil {
				title = node.Name
			}
			_, path, _ := ParseRef(ref)
			wk.windows[ref] = winMark{role: role, title: title, id: windowID(path)}
		} else {
			if _, known := wk.windows[ref]; !known && t == model.EventWindowClosed {
				return false
			}
			defer delete(wk.windows, ref)
		}
	}
	if t == model.EventChildrenChanged {
		wk.emitAdded(ctx, app, rawName, j, ref, node, detail)
	} else {
		wk.emit(ctx, app, t, rawName, j.at, ref, node, detail)
	}
	if t == model.EventChildrenChanged && ref == RootRef(wk.bus) && !wk.rootChild(ctx, app, j, rawName) {
		wk.syncWindows(ctx, app, rawName, j.at)
	}
	if t == model.EventTitleChanged {
		if wm, ok := wk.windows[ref]; ok && node != nil {
			wm.title = node.Name
			wk.windows[ref] = wm
		}
	}
	return false
}

// destroyed reports an element's destruction (state-changed:defunct), and the end of the window
// when it was a top-level: GTK4 closes a dialog with nothing else.
func (wk *appWorker) destroyed(ctx context.Context, app *appInfo, ref model.NodeRef, raw string, at time.Time) {
	b := wk.w.b
	ri, _ := b.cache.get(ref)
	node := cachedNode(ri, ref)
	if node != nil {
		node.States |= model.StateDefunct
	}
	wm, isWin := wk.windows[ref]
	if isWin && node == nil {
		node = &model.Node{Ref: ref, Role: NormaliseRole(wm.role, 0), PlatformRole: RoleName(wm.role), Name: wm.title}
	}
	wk.emit(ctx, app, model.EventElementDestroyed, raw, at, ref, node, nil)
	if isWin {
		if t := closedType(wm.role); t != "" {
			wk.emit(ctx, app, t, raw, at, ref, node, nil)
		}
		delete(wk.windows, ref)
	}
	b.cache.forget(ref)
}

// launched reports a new app and the windows it has already.
func (wk *appWorker) launched(ctx context.Context, j job) {
	b := wk.w.b
	var app *appInfo
	_ = backoff.Retry(func() error {
		if err := ctx.Err(); err != nil {
			return backoff.Permanent(err)
		}
		if app = b.fetchApps(ctx, []string{wk.bus}, true, slog.LevelDebug)[wk.bus]; app == nil {
			return errNotYet
		}
		return nil
	}, launchBackOff(ctx))
	if app == nil || app.pid == b.selfPID {
		return
	}
	wk.w.deliver(model.Event{Time: j.at, App: app.ref(), Type: model.EventAppLaunched, Raw: j.rawName,
		Detail: map[string]any{"bus": wk.bus, "toolkit": app.toolkit}, Instance: wk.bus})
	wk.windowsInit = true
	// Every window of a launched app is new, also one its own earlier events made known
	// (window:activate may arrive before the registry announces the app).
	wk.windows = map[model.NodeRef]winMark{}
	// An app may register before its first window exists, and GTK4 announces no window:create:
	// look again for a while until the window shows.
	_ = backoff.Retry(func() error {
		if err := ctx.Err(); err != nil {
			return backoff.Permanent(err)
		}
		if wk.syncWindows(ctx, app, "poll:window:create", j.at); len(wk.windows) == 0 {
			return errNotYet
		}
		return nil
	}, launchBackOff(ctx))
	if app.recheck {
		wk.prime(ctx, app)
	}
}

// registeredAgain handles an app that was running registering with a restarted registry: the
// same instance, so nothing is announced but what really changed in its windows meanwhile.
func (wk *appWorker) registeredAgain(ctx context.Context, j job) {
	if !wk.windowsInit {
		wk.initWindows(ctx)
		return
	}
	if app := wk.appInfo(ctx); app != nil {
		wk.syncWindows(ctx, app, "poll:window:create", j.at)
	}
}

// emit delivers one event about ref.
func (wk *appWorker) emit(ctx context.Context, app *appInfo, t model.EventType, raw string, at time.Time,
	ref model.NodeRef, node *model.Node, detail map[string]any) {
	wk.emitWin(app, t, raw, at, ref, node, detail, wk.windowFor(ctx, ref))
}

// emitAdded is emit for a children-changed that names its child: the event carries it, and the
// child as prefetch read it, when it did.
func (wk *appWorker) emitAdded(ctx context.Context, app *appInfo, raw string, j job, ref model.NodeRef,
	node *model.Node, detail map[string]any) {
	ev := wk.event(app, model.EventChildrenChanged, raw, j.at, ref, node, detail, wk.windowFor(ctx, ref))
	if c := variantRef(j.data); c != "" && c != ref {
		ev.Child = c
		if j.raw.mainKind() == "add" {
			ev.Added = wk.pre[c]
		}
	}
	wk.w.deliver(ev)
}

func (wk *appWorker) emitWin(app *appInfo, t model.EventType, raw string, at time.Time,
	ref model.NodeRef, node *model.Node, detail map[string]any, win *model.WindowRef) {
	if t == "" {
		return
	}
	wk.w.deliver(wk.event(app, t, raw, at, ref, node, detail, win))
}

// event is the event of type t about ref, with its summary node.
func (wk *appWorker) event(app *appInfo, t model.EventType, raw string, at time.Time,
	ref model.NodeRef, node *model.Node, detail map[string]any, win *model.WindowRef) model.Event {
	ev := model.Event{Time: at, App: app.ref(), Window: win, Type: t, Raw: raw, Detail: detail, Ref: ref}
	if node != nil {
		ev.Element, ev.Secure = node.Summary(), node.Secure
	}
	if !ev.Secure && ref != "" {
		ri, _ := wk.w.b.cache.get(ref)
		ev.Secure = ri.secure // known from an earlier read, when the event came without a summary
	}
	return ev
}
