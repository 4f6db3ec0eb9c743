//go:build linux

package atspi

import (
	"context"
	"log/slog"
	"sort"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"
)

// appInfo is what the backend knows of one app (one connection on the accessibility bus).
type appInfo struct {
	bus     string
	pid     int
	name    string
	toolkit string
	version string
	// gtk4: GTK 4 names unnamed widgets after their class and reports extents relative to the window.
	gtk4 bool
	// windowCoords: GetExtents(SCREEN) is not supported; window coordinates plus the window's
	// position on screen are used instead.
	windowCoords bool
	// recheck: the toolkit misses events, so a watch re-reads the app every recheck period.
	recheck bool
	// propsByEvents, propsOneByOne: see toolkitTraits.
	propsByEvents bool
	propsOneByOne bool
	// complete is set once pid and toolkit are known.
	complete bool
}

func (a *appInfo) ref() model.AppRef { return model.AppRef{Name: a.name, PID: a.pid} }

// setToolkit records the toolkit and what follows from it.
func (a *appInfo) setToolkit(name, version string) {
	a.toolkit, a.version = name, version
	t := toolkitTraitsOf(name, version)
	a.gtk4, a.windowCoords, a.recheck = t.gtk4, t.windowCoords, t.recheck
	a.propsByEvents, a.propsOneByOne = t.propsByEvents, t.propsOneByOne
}

// Apps lists the apps registered with the AT-SPI registry, and those serving an application root
// on the accessibility bus that a restarted registry does not know. An app that does not answer
// within the call timeout is left out (and logged) rather than failing the list; so is axbus
// itself.
func (b *Backend) Apps(ctx context.Context) ([]model.App, error) {
	if b.isClosed() {
		return nil, errClosed()
	}
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	var kids []objRef
	root := b.conn.Object(registryName, rootPath)
	if err := root.CallWithContext(cctx, accessibleGetChildren, 0).Store(&kids); err != nil {
		e := b.callError(ctx, registryName, rootPath, accessibleGetChildren, err)
		if e.Code == model.CodeAppGone || e.Code == model.CodeAppNotResponding {
			e = model.Errorf(model.CodeUnavailable,
				"Restart the desktop session (or axbus serve --headless always); check that at-spi2-core is installed.",
				"the AT-SPI registry did not list the apps: %s", e.Message).Wrap(err)
		}
		return nil, e
	}
	seen := map[string]bool{}
	var buses []string
	for _, k := range kids {
		if isNullRef(k.Bus, string(k.Path)) || k.Bus == b.self || seen[k.Bus] {
			continue
		}
		seen[k.Bus] = true
		buses = append(buses, k.Bus)
	}
	// Known apps are not asked again: an app's name rarely changes, and one frozen app must not
	// hold up every request that lists apps for the length of the call timeout.
	infos := b.fetchApps(ctx, buses, false, slog.LevelInfo)
	// Apps a restarted registry does not know, found on the bus itself.
	pids := map[int]bool{}
	for _, a := range infos {
		pids[a.pid] = true
	}
	if more := b.unregistered(cctx, seen, pids); len(more) > 0 {
		for bus, a := range b.fetchApps(ctx, more, false, slog.LevelDebug) {
			if !pids[a.pid] {
				pids[a.pid] = true
				infos[bus] = a
				buses = append(buses, bus)
			}
		}
	}
	for bus := range infos {
		b.dialPeer(ctx, bus)
	}
	out := make([]model.App, 0, len(infos))
	for _, bus := range buses {
		a := infos[bus]
		if a == nil || a.pid == b.selfPID {
			continue
		}
		out = append(out, model.App{PID: a.pid, Name: a.name, Toolkit: a.toolkit, Instance: a.bus})
	}
	return out, nil
}

// fetchApps reads pid, name and toolkit of the apps on buses, pipelined; what is known already
// is not asked again, except the name when fresh is set. Apps that fail are left out.
func (b *Backend) fetchApps(ctx context.Context, buses []string, fresh bool, level slog.Level) map[string]*appInfo {
	type q struct {
		a                      *appInfo
		cPID, cName, cTK, cVer *dbus.Call
	}
	qs := make([]*q, 0, len(buses))
	b.mu.Lock()
	for _, bus := range buses {
		a := b.apps[bus]
		cp := &appInfo{bus: bus}
		if a != nil {
			*cp = *a
		}
		qs = append(qs, &q{a: cp})
	}
	b.mu.Unlock()
	b.phase(ctx, false, func(c *caller) {
		for _, x := range qs {
			if x.a.pid == 0 {
				x.cPID = c.call(dbusName, dbusPath, dbusName+".GetConnectionUnixProcessID", x.a.bus)
			}
			if fresh || !x.a.complete {
				x.cName = c.prop(x.a.bus, rootPath, ifaceAccessible, "Name")
			}
			if !x.a.complete {
				x.cTK = c.prop(x.a.bus, rootPath, ifaceApp, "ToolkitName")
				x.cVer = c.prop(x.a.bus, rootPath, ifaceApp, "Version")
			}
		}
	})
	out := map[string]*appInfo{}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, x := range qs {
		a := x.a
		if x.cPID != nil {
			var pid uint32
			if err := x.cPID.Store(&pid); err != nil {
				b.log.Debug("atspi: app left out: no pid", "bus", a.bus, "err", err)
				continue
			}
			a.pid = int(pid)
		}
		if x.cName != nil {
			var v dbus.Variant
			if err := x.cName.Store(&v); err != nil {
				b.log.Log(context.Background(), level, "atspi: app left out: it did not answer", "bus", a.bus, "pid", a.pid, "err", err)
				continue
			}
			a.name, _ = v.Value().(string)
		}
		if x.cTK != nil {
			var tk, ver dbus.Variant
			_ = x.cTK.Store(&tk)
			_ = x.cVer.Store(&ver)
			name, _ := tk.Value().(string)
			version, _ := ver.Value().(string)
			a.setToolkit(name, version)
			a.complete = x.cTK.Err == nil || x.cVer.Err == nil || codeOfCall(x.cTK) == model.CodeNotSupported
		}
		if old := b.apps[a.bus]; old != nil {
			*old = *a
			a = old
		} else if !b.closed {
			b.apps[a.bus] = a
		}
		cp := *a
		out[a.bus] = &cp
	}
	return out
}

// codeOfCall is the observer code of a failed call's D-Bus error, or "".
func codeOfCall(c *dbus.Call) model.Code {
	if c == nil || c.Err == nil {
		return ""
	}
	if de, ok := c.Err.(dbus.Error); ok {
		msg := ""
		if len(de.Body) > 0 {
			msg, _ = de.Body[0].(string)
		}
		return codeOfDBusError(de.Name, msg)
	}
	return model.CodeInternal
}

// ensureApps returns what is known of the apps on buses, asking for what is missing.
func (b *Backend) ensureApps(ctx context.Context, buses map[string]bool) map[string]*appInfo {
	out := map[string]*appInfo{}
	var missing []string
	b.mu.Lock()
	for bus := range buses {
		if a := b.apps[bus]; a != nil && a.complete {
			cp := *a
			out[bus] = &cp
		} else {
			missing = append(missing, bus)
		}
	}
	b.mu.Unlock()
	if len(missing) > 0 {
		for bus, a := range b.fetchApps(ctx, missing, false, slog.LevelDebug) {
			out[bus] = a
			b.dialPeer(ctx, bus)
		}
	}
	return out
}

// app returns a copy of what is known of the app on bus, or nil.
func (b *Backend) app(bus string) *appInfo {
	b.mu.Lock()
	defer b.mu.Unlock()
	if a := b.apps[bus]; a != nil {
		cp := *a
		return &cp
	}
	return nil
}

// busOf finds the bus name of the app with pid, listing the apps again when it is not known.
func (b *Backend) busOf(ctx context.Context, pid int) (*appInfo, error) {
	find := func() *appInfo {
		b.mu.Lock()
		defer b.mu.Unlock()
		var found []*appInfo
		for _, a := range b.apps {
			if a.pid == pid {
				found = append(found, a)
			}
		}
		if len(found) == 0 {
			return nil
		}
		sort.Slice(found, func(i, j int) bool { return found[i].bus < found[j].bus })
		cp := *found[len(found)-1] // the newest connection of a relaunched or multi-toolkit process
		return &cp
	}
	if a := find(); a != nil {
		return a, nil
	}
	if _, err := b.Apps(ctx); err != nil {
		return nil, err
	}
	if a := find(); a != nil {
		return a, nil
	}
	return nil, model.Errorf(model.CodeAppNotFound, "",
		"no app with pid %d is registered with AT-SPI", pid).With("pid", pid)
}

// Windows lists the app's top-level windows and dialogs: the children of its root that are
// visible and no menu or tool tip (isTopLevel).
func (b *Backend) Windows(ctx context.Context, pid int) ([]model.Window, error) {
	a, err := b.busOf(ctx, pid)
	if err != nil {
		return nil, err
	}
	wins, err := b.listWindows(ctx, a)
	if err != nil {
		return nil, err
	}
	return wins, nil
}

// listWindows reads the app's top-level windows and remembers them for window events.
func (b *Backend) listWindows(ctx context.Context, a *appInfo) ([]model.Window, error) {
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	var kids []objRef
	if err := b.conn.Object(a.bus, rootPath).CallWithContext(cctx, accessibleGetChildren, 0).Store(&kids); err != nil {
		return nil, b.callError(ctx, a.bus, rootPath, accessibleGetChildren, err)
	}
	refs := make([]model.NodeRef, 0, len(kids))
	for _, k := range kids {
		if !isNullRef(k.Bus, string(k.Path)) {
			refs = append(refs, MakeRef(k.Bus, string(k.Path)))
		}
	}
	nodes := b.read(ctx, refs, modeWindow, false)
	var out []model.Window
	var firstErr error
	for _, n := range nodes {
		if n.Err != nil {
			if e := model.AsError(n.Err); e.Code == model.CodeAppGone || e.Code == model.CodeAppNotResponding || e.Code == model.CodeTimeout {
				firstErr = e
			}
			continue
		}
		role, _ := RoleNumber(n.PlatformRole)
		if !isTopLevel(role) || n.States&(model.StateVisible|model.StateShowing|model.StateMinimized) == 0 {
			continue
		}
		_, path, _ := ParseRef(n.Ref)
		out = append(out, model.Window{
			ID: windowID(path), Title: n.Name, Role: windowRole(role), Bounds: n.Bounds,
			Focused: n.States.Has(model.StateActive), Modal: n.States.Has(model.StateModal),
			Minimized: n.States.Has(model.StateMinimized), Ref: n.Ref,
		})
	}
	if len(out) == 0 && firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}
