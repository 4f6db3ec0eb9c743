package x11

import (
	"time"

	"github.com/jezek/xgb/xproto"
)

// Window is a top-level X window of an app, where it was when listed.
type Window struct {
	id         xproto.Window
	Title      string
	X, Y, W, H int
	// Mapped is false for a window not shown (withdrawn or iconified).
	Mapped bool
}

// Shown reports whether w is mapped and bigger than a 1x1 helper window.
func (w Window) Shown() bool { return w.Mapped && w.W > 1 && w.H > 1 }

// originTTL is how long the positions of an app's windows are trusted by CachedWindowsOf.
const originTTL = time.Second

type cachedWindows struct {
	at   time.Time
	wins []Window
}

// WindowsOf lists the top-level windows of pid (bottom to top in stacking order), found by
// _NET_WM_PID on the root's children and, under a reparenting window manager, their children.
func (x *Conn) WindowsOf(pid int) ([]Window, error) { return x.windowsOf(pid, true) }

// CachedWindowsOf is WindowsOf as it was at most a second ago: reads ask it for every element.
func (x *Conn) CachedWindowsOf(pid int) ([]Window, error) { return x.windowsOf(pid, false) }

func (x *Conn) windowsOf(pid int, fresh bool) ([]Window, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if c, ok := x.origins[pid]; ok && !fresh && time.Since(c.at) < originTTL {
		return c.wins, nil
	}
	tree, err := xproto.QueryTree(x.c, x.root).Reply()
	if err != nil {
		return nil, err
	}
	var out []Window
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
func (x *Conn) ownedBy(w xproto.Window, pid int) (Window, bool) {
	p, ok := x.cardinal(w, "_NET_WM_PID")
	if !ok || int(p) != pid {
		return Window{}, false
	}
	attrs, err := xproto.GetWindowAttributes(x.c, w).Reply()
	if err != nil {
		return Window{}, false
	}
	geo, err := xproto.GetGeometry(x.c, xproto.Drawable(w)).Reply()
	if err != nil {
		return Window{}, false
	}
	pos, err := xproto.TranslateCoordinates(x.c, w, x.root, 0, 0).Reply()
	if err != nil {
		return Window{}, false
	}
	return Window{
		id: w, Title: x.title(w), X: int(pos.DstX), Y: int(pos.DstY), W: int(geo.Width), H: int(geo.Height),
		Mapped: attrs.MapState == xproto.MapStateViewable,
	}, true
}

// windowAt returns pid's top-most mapped top-level window that contains the point, or its
// top-most mapped one.
func (x *Conn) windowAt(pid, px, py int) (Window, bool) {
	wins, err := x.WindowsOf(pid)
	if err != nil {
		return Window{}, false
	}
	var top Window
	found := false
	for i := len(wins) - 1; i >= 0; i-- {
		w := wins[i]
		if !w.Shown() {
			continue
		}
		if px >= w.X && px < w.X+w.W && py >= w.Y && py < w.Y+w.H {
			return w, true
		}
		if !found {
			top, found = w, true
		}
	}
	return top, found
}
