//go:build linux

package atspi

import (
	"context"
	"errors"
	"io"
	"log"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"github.com/axbus/axbus/internal/xauth"
	"github.com/axbus/axbus/observer"
)

// point is a position on screen.
type point struct{ x, y float64 }

// xWindow is a top-level X window of an app.
type xWindow struct {
	id     xproto.Window
	title  string
	x, y   int
	w, h   int
	mapped bool
}

// quietXGB silences xgb's package logger once.
var quietXGB sync.Once

// originTTL is how long the positions of an app's windows are trusted.
const originTTL = time.Second

// xConn is the backend's connection to the X server, opened on first use.
type xConn struct {
	mu     sync.Mutex
	c      *xgb.Conn
	root   xproto.Window
	xtest  bool
	atoms  map[string]xproto.Atom
	minKey xproto.Keycode
	maxKey xproto.Keycode
	// origins caches the top-level windows of a pid.
	origins map[int]cachedWindows
	keys    *keyboard
}

type cachedWindows struct {
	at   time.Time
	wins []xWindow
}

// xconn returns the X connection, opening it on first use.
func (b *Backend) xconn() (*xConn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errClosed()
	}
	if b.x != nil {
		return b.x, nil
	}
	if b.cfg.display == "" {
		return nil, observer.Errorf(observer.CodeUnavailable,
			"Physical input needs an X11 display: run axbus in an X session (DISPLAY set), or axbus serve --headless always.",
			"no X display: DISPLAY is not set")
	}
	quietXGB.Do(func() { xgb.Logger = log.New(io.Discard, "", 0) }) // it logs a missing ~/.Xauthority to stderr
	c, err := xauth.Dial(b.cfg.display, b.cfg.xauthority)
	if err != nil {
		return nil, observer.Errorf(observer.CodeUnavailable,
			"Check DISPLAY, that the X server runs (Wayland sessions need XWayland for physical input) and that XAUTHORITY names its cookie.",
			"cannot connect to the X display %s: %v", b.cfg.display, err).Wrap(err)
	}
	setup := xproto.Setup(c)
	x := &xConn{
		c: c, root: setup.DefaultScreen(c).Root, atoms: map[string]xproto.Atom{},
		minKey: setup.MinKeycode, maxKey: setup.MaxKeycode, origins: map[int]cachedWindows{},
	}
	if err := xtest.Init(c); err == nil {
		x.xtest = true
	}
	b.x = x
	return x, nil
}

// close closes the connection and waits for xgb's goroutines to end.
func (x *xConn) close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.keys != nil {
		x.keys.restore(x)
		x.keys = nil // a restore timer that fires late finds nothing to do
	}
	x.c.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			ev, err := x.c.WaitForEvent()
			if ev == nil && err == nil {
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}

// atom interns name (cached). Callers hold x.mu.
func (x *xConn) atom(name string) xproto.Atom {
	if a, ok := x.atoms[name]; ok {
		return a
	}
	r, err := xproto.InternAtom(x.c, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0
	}
	x.atoms[name] = r.Atom
	return r.Atom
}

// cardinal reads a CARDINAL property's first value. Callers hold x.mu.
func (x *xConn) cardinal(w xproto.Window, prop string) (uint32, bool) {
	r, err := xproto.GetProperty(x.c, false, w, x.atom(prop), xproto.AtomCardinal, 0, 1).Reply()
	if err != nil || r.Format != 32 || len(r.Value) < 4 {
		return 0, false
	}
	return xgb.Get32(r.Value), true
}

// title reads _NET_WM_NAME, else WM_NAME. Callers hold x.mu.
func (x *xConn) title(w xproto.Window) string {
	r, err := xproto.GetProperty(x.c, false, w, x.atom("_NET_WM_NAME"), x.atom("UTF8_STRING"), 0, 1024).Reply()
	if err == nil && len(r.Value) > 0 {
		return string(r.Value)
	}
	r, err = xproto.GetProperty(x.c, false, w, xproto.AtomWmName, xproto.GetPropertyTypeAny, 0, 1024).Reply()
	if err == nil {
		return string(r.Value)
	}
	return ""
}

// windowsOf lists the top-level windows of pid (bottom to top in stacking order), found by
// _NET_WM_PID on the root's children and, under a reparenting window manager, their children.
func (x *xConn) windowsOf(pid int, fresh bool) ([]xWindow, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if c, ok := x.origins[pid]; ok && !fresh && time.Since(c.at) < originTTL {
		return c.wins, nil
	}
	tree, err := xproto.QueryTree(x.c, x.root).Reply()
	if err != nil {
		return nil, err
	}
	var out []xWindow
	for _, top := range tree.Children {
		w, ok := x.ownedBy(top, pid)
		if !ok {
			sub, err := xproto.QueryTree(x.c, top).Reply()
			if err != nil {
				continue
			}
			for _, c := range sub.Children {
				if w, ok = x.ownedBy(c, pid); ok {
					break
				}
			}
			if !ok {
				continue
			}
		}
		out = append(out, w)
	}
	x.origins[pid] = cachedWindows{at: time.Now(), wins: out}
	return out, nil
}

// ownedBy describes w when its _NET_WM_PID is pid. Callers hold x.mu.
func (x *xConn) ownedBy(w xproto.Window, pid int) (xWindow, bool) {
	p, ok := x.cardinal(w, "_NET_WM_PID")
	if !ok || int(p) != pid {
		return xWindow{}, false
	}
	attrs, err := xproto.GetWindowAttributes(x.c, w).Reply()
	if err != nil {
		return xWindow{}, false
	}
	geo, err := xproto.GetGeometry(x.c, xproto.Drawable(w)).Reply()
	if err != nil {
		return xWindow{}, false
	}
	pos, err := xproto.TranslateCoordinates(x.c, w, x.root, 0, 0).Reply()
	if err != nil {
		return xWindow{}, false
	}
	return xWindow{
		id: w, title: x.title(w), x: int(pos.DstX), y: int(pos.DstY), w: int(geo.Width), h: int(geo.Height),
		mapped: attrs.MapState == xproto.MapStateViewable,
	}, true
}

// originCache remembers window origins during one read: per app when all its windows share
// one origin, else per window.
type originCache map[string]point

// windowOrigin is the screen position of the window that holds ref, for toolkits that report
// extents in window coordinates (GTK4). It is found through X11: the origin all the app's visible
// top-level windows share (under Xvfb without a window manager they sit at 0,0), else the origin
// of the one whose title is the title of ref's window. Without X it is (0, 0).
func (b *Backend) windowOrigin(ctx context.Context, a *appInfo, ref observer.NodeRef, cache originCache) point {
	if o, ok := cache[a.bus]; ok {
		return o
	}
	x, err := b.xconn()
	if err != nil || a.pid == 0 {
		cache[a.bus] = point{}
		return point{}
	}
	wins, err := x.windowsOf(a.pid, false)
	var mapped []xWindow
	for _, w := range wins {
		if w.mapped && w.w > 1 && w.h > 1 {
			mapped = append(mapped, w)
		}
	}
	if err != nil || len(mapped) == 0 {
		cache[a.bus] = point{}
		return point{}
	}
	same := true
	for _, w := range mapped[1:] {
		if w.x != mapped[0].x || w.y != mapped[0].y {
			same = false
		}
	}
	if same {
		o := point{float64(mapped[0].x), float64(mapped[0].y)}
		cache[a.bus] = o
		return o
	}
	top := mapped[len(mapped)-1]
	o := point{float64(top.x), float64(top.y)}
	win, ok := b.windowOf(ctx, a.bus, ref)
	if !ok {
		return o
	}
	if wo, ok := cache[string(win)]; ok {
		return wo
	}
	if title, ok := b.titleOf(ctx, win); ok {
		for i := len(mapped) - 1; i >= 0; i-- {
			if mapped[i].title == title {
				o = point{float64(mapped[i].x), float64(mapped[i].y)}
				break
			}
		}
	}
	cache[string(win)] = o
	return o
}

// titleOf reads a window's name.
func (b *Backend) titleOf(ctx context.Context, win observer.NodeRef) (string, bool) {
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

// errNoXTest is returned when the X server lacks the XTEST extension.
var errNoXTest = errors.New("the X server has no XTEST extension")
