//go:build linux

package atspi

import (
	"context"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"

	"github.com/axbus/axbus/internal/x11"
)

// point is a position on screen.
type point struct{ x, y float64 }

// originCache remembers window origins during one read: per app when all its windows share
// one origin, else per window.
type originCache map[string]point

// windowOrigin is the screen position of the window that holds ref, for toolkits that report
// extents in window coordinates (GTK4). It is found through X11: the origin all the app's visible
// top-level windows share (under Xvfb without a window manager they sit at 0,0), else the origin
// of the one whose title is the title of ref's window. Without X it is (0, 0).
func (b *Backend) windowOrigin(ctx context.Context, a *appInfo, ref model.NodeRef, cache originCache) point {
	if o, ok := cache[a.bus]; ok {
		return o
	}
	x, err := b.xconn()
	if err != nil || a.pid == 0 {
		cache[a.bus] = point{}
		return point{}
	}
	wins, err := x.CachedWindowsOf(a.pid)
	var mapped []x11.Window
	for _, w := range wins {
		if w.Shown() {
			mapped = append(mapped, w)
		}
	}
	if err != nil || len(mapped) == 0 {
		cache[a.bus] = point{}
		return point{}
	}
	same := true
	for _, w := range mapped[1:] {
		if w.X != mapped[0].X || w.Y != mapped[0].Y {
			same = false
		}
	}
	if same {
		o := point{float64(mapped[0].X), float64(mapped[0].Y)}
		cache[a.bus] = o
		return o
	}
	top := mapped[len(mapped)-1]
	o := point{float64(top.X), float64(top.Y)}
	win, ok := b.windowOf(ctx, a.bus, ref)
	if !ok {
		return o
	}
	if wo, ok := cache[string(win)]; ok {
		return wo
	}
	if title, ok := b.titleOf(ctx, win); ok {
		for i := len(mapped) - 1; i >= 0; i-- {
			if mapped[i].Title == title {
				o = point{float64(mapped[i].X), float64(mapped[i].Y)}
				break
			}
		}
	}
	cache[string(win)] = o
	return o
}

// titleOf reads a window's name.
func (b *Backend) titleOf(ctx context.Context, win model.NodeRef) (string, bool) {
	bus, path, ok := ParseRef(win)
	if !ok {
		return "", false
	}
	if ri, ok := b.cache.get(win); ok && ri.haveName {
		return ri.name, true
	}
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	var v dbus.Variant
	c := b.conn.Object(bus, dbus.ObjectPath(path)).CallWithContext(cctx, propsGet, 0, ifaceAccessible, "Name")
	if c.Err != nil || c.Store(&v) != nil {
		return "", false
	}
	name, _ := v.Value().(string)
	return name, true
}
