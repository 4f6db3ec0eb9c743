package x11

import "github.com/jezek/xgb/xproto"

// TopAt is the process whose top-level window is the top-most mapped one at the point (root
// coordinates), and that window: where a person's click landed. ok is false when no window with
// a _NET_WM_PID is there.
func (x *Conn) TopAt(px, py int) (pid int, w Window, ok bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	tree, err := xproto.QueryTree(x.c, x.root).Reply()
	if err != nil {
		return 0, Window{}, false
	}
	for i := len(tree.Children) - 1; i >= 0; i-- { // top to bottom
		top := tree.Children[i]
		for _, c := range x.withChildren(top) { // a window manager's frame holds the app's window
			p, has := x.cardinal(c, "_NET_WM_PID")
			if !has {
				continue
			}
			win, owned := x.ownedBy(c, int(p))
			if owned && win.Shown() && px >= win.X && px < win.X+win.W && py >= win.Y && py < win.Y+win.H {
				return int(p), win, true
			}
			break
		}
	}
	return 0, Window{}, false
}

// withChildren is w and its children. Callers hold x.mu.
func (x *Conn) withChildren(w xproto.Window) []xproto.Window {
	out := []xproto.Window{w}
	if sub, err := xproto.QueryTree(x.c, w).Reply(); err == nil {
		out = append(out, sub.Children...)
	}
	return out
}
