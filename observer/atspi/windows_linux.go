//go:build linux

package atspi

import (
	"context"
	"strings"
	"time"

	"github.com/axbus/axbus/model"
)

// winMark is a known top-level window of an app.
type winMark struct {
	role  uint32
	title string
	id    string
}

func (wk *appWorker) setWindows(wins []model.Window) {
	for _, win := range wins {
		wk.windows[win.Ref] = wk.markOf(win)
	}
	wk.windowsInit = true
}

// markOf describes a listed window, with its numeric role when the cache knows it.
func (wk *appWorker) markOf(win model.Window) winMark {
	role := uint32(roleFrame)
	if ri, ok := wk.w.b.cache.get(win.Ref); ok && ri.haveRole {
		role = ri.role
	} else if win.Role == model.RoleDialog {
		role = roleDialog
	}
	return winMark{role: role, title: win.Title, id: win.ID}
}

// rootChild reports a top-level added to or removed from the app's root straight from the event
// (GTK3 names the child in it), and says whether it could; GTK4 names the root itself, and the
// caller lists the windows again.
func (wk *appWorker) rootChild(ctx context.Context, app *appInfo, j job, raw string) bool {
	child := variantRef(j.data)
	if child == "" || child == j.src {
		return false
	}
	switch j.raw.mainKind() {
	case "add":
		if _, known := wk.windows[child]; known {
			return true
		}
		n := wk.pre[child]
		if n == nil || n.PlatformRole == "" { // not read within the summary budget: read it alone
			if r := wk.w.b.read(ctx, []model.NodeRef{child}, modeWindow, false)[0]; r.Err == nil {
				n = &r
			}
		}
		if n == nil {
			return false
		}
		role, _ := RoleNumber(n.PlatformRole)
		if !isTopLevel(role) && !isMenuRole(role) {
			return true
		}
		_, path, _ := ParseRef(child)
		wk.windows[child] = winMark{role: role, title: n.Name, id: windowID(path)}
		wk.emit(ctx, app, openedType(role), raw, j.at, child, n, nil)
		if app.recheck && wk.poll != nil {
			wk.realize(ctx, child)
		}
		return true
	case "remove":
		wm, known := wk.windows[child]
		if known {
			node := &model.Node{Ref: child, Role: NormaliseRole(wm.role, 0), PlatformRole: RoleName(wm.role), Name: wm.title}
			wk.emit(ctx, app, closedType(wm.role), raw, j.at, child, node, nil)
			delete(wk.windows, child)
		}
		return true
	}
	return false
}

// initWindows learns the app's windows silently (an app first seen through one of its events).
func (wk *appWorker) initWindows(ctx context.Context) {
	wk.windowsInit = true
	app := wk.appInfo(ctx)
	if app == nil {
		return
	}
	if wins, err := wk.w.b.listWindows(ctx, app); err == nil {
		wk.setWindows(wins)
	}
}

// syncWindows lists the app's windows again and reports the new and the vanished ones: GTK4
// announces a new top-level only as children-changed:add on the root pointing at the root.
func (wk *appWorker) syncWindows(ctx context.Context, app *appInfo, raw string, at time.Time) {
	b := wk.w.b
	wins, err := b.listWindows(ctx, app)
	if err != nil {
		return
	}
	now := map[model.NodeRef]bool{}
	for _, win := range wins {
		now[win.Ref] = true
		if _, known := wk.windows[win.Ref]; known {
			continue
		}
		wm := wk.markOf(win)
		role := wm.role
		wk.windows[win.Ref] = wm
		if app.recheck && wk.poll != nil {
			wk.realize(ctx, win.Ref) // GTK4 emits events only for elements a client has seen
		}
		node := &model.Node{Ref: win.Ref, Role: NormaliseRole(role, 0), PlatformRole: RoleName(role), Name: win.Title,
			Bounds: win.Bounds}
		if win.Focused {
			node.States |= model.StateActive
		}
		wk.emit(ctx, app, openedType(role), raw, at, win.Ref, node, nil)
	}
	for ref, wm := range wk.windows {
		if now[ref] {
			continue
		}
		delete(wk.windows, ref)
		node := &model.Node{Ref: ref, Role: NormaliseRole(wm.role, 0), PlatformRole: RoleName(wm.role), Name: wm.title}
		closedRaw := raw
		if strings.HasPrefix(raw, "poll:") {
			closedRaw = "poll:window:destroy"
		}
		wk.emitWin(app, closedType(wm.role), closedRaw, at, ref, node, nil, &model.WindowRef{ID: wm.id, Title: wm.title})
	}
}

// windowFor names the window that holds ref: ref itself, the app's only window, or the window
// found by climbing ref's parents.
func (wk *appWorker) windowFor(ctx context.Context, ref model.NodeRef) *model.WindowRef {
	if wm, ok := wk.windows[ref]; ok {
		return &model.WindowRef{ID: wm.id, Title: wm.title}
	}
	if ref == RootRef(wk.bus) {
		return nil
	}
	if len(wk.windows) == 1 {
		for _, wm := range wk.windows {
			return &model.WindowRef{ID: wm.id, Title: wm.title}
		}
	}
	if win, ok := wk.w.b.windowOf(ctx, wk.bus, ref); ok {
		if wm, ok := wk.windows[win]; ok {
			return &model.WindowRef{ID: wm.id, Title: wm.title}
		}
	}
	return nil
}
