// Package xwindows asks an X server what a person sees on it: the top-level windows clients show (mapped, with a
// title) and the process that owns each, and the root window's AT_SPI_BUS property. `axbus doctor` compares the
// windows with the apps registered with AT-SPI to name those whose toolkit publishes no accessibility tree.
package xwindows

import (
	"io"
	"log"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/res"
	"github.com/jezek/xgb/xproto"

	"github.com/axbus/axbus/internal/xauth"
)

// xgb logs to stderr when there is no ~/.Xauthority, whoever asks; silenced at start, before any connection's
// goroutine reads the logger (the AT-SPI backend silences it too).
func init() { xgb.Logger = log.New(io.Discard, "", 0) }

// Where a window's PID came from.
const (
	PIDFromNetWM = "_NET_WM_PID" // the window's property, set by its toolkit
	PIDFromXRes  = "X-Resource"  // the X server's answer for the client's connection (XResQueryClientIds)
)

// Window is a top-level window a client shows: mapped, not override-redirect (menus, tool tips), with a title.
type Window struct {
	ID    uint32
	Title string
	// PID is the owning process on this machine; 0 when neither the window nor the X server says.
	PID int
	// PIDFrom says where PID came from: PIDFromNetWM or PIDFromXRes ("" when unknown).
	PIDFrom string
}

// Display is a connection to an X server, for these questions only.
type Display struct {
	Name  string // the display, as given to Open
	c     *xgb.Conn
	root  xproto.Window
	xres  bool // the server answers XResQueryClientIds (X-Resource 1.2)
	atoms map[string]xproto.Atom
}

// Open connects to display with the MIT-MAGIC-COOKIE-1 xauthority holds for it ("": $XAUTHORITY, else
// ~/.Xauthority).
func Open(display, xauthority string) (*Display, error) {
	c, err := xauth.Dial(display, xauthority)
	if err != nil {
		return nil, err
	}
	d := &Display{Name: display, c: c, root: xproto.Setup(c).DefaultScreen(c).Root, atoms: map[string]xproto.Atom{}}
	if res.Init(c) == nil {
		if v, err := res.QueryVersion(c, 1, 2).Reply(); err == nil && (v.ServerMajor > 1 || v.ServerMajor == 1 && v.ServerMinor >= 2) {
			d.xres = true
		}
	}
	return d, nil
}

// Close closes the connection and waits for xgb's reader to end.
func (d *Display) Close() {
	d.c.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if ev, err := d.c.WaitForEvent(); ev == nil && err == nil {
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}

// TopLevel lists the windows clients show, bottom to top in stacking order. A root's child is the client's
// window itself (no window manager) or a window manager's frame, whose client window is found below it (the one
// with WM_STATE, else with a title).
func (d *Display) TopLevel() ([]Window, error) {
	tree, err := xproto.QueryTree(d.c, d.root).Reply()
	if err != nil {
		return nil, err
	}
	var out []Window
	for _, top := range tree.Children {
		attrs, err := xproto.GetWindowAttributes(d.c, top).Reply()
		if err != nil || attrs.OverrideRedirect || attrs.MapState != xproto.MapStateViewable {
			continue
		}
		w, ok := d.client(top, 3)
		if !ok {
			continue
		}
		if attrs, err = xproto.GetWindowAttributes(d.c, w).Reply(); err != nil || attrs.MapState != xproto.MapStateViewable {
			continue // a frame whose client is withdrawn
		}
		title := d.title(w)
		if title == "" {
			continue
		}
		win := Window{ID: uint32(w), Title: title}
		if pid, ok := d.cardinal(w, "_NET_WM_PID"); ok && pid > 0 {
			win.PID, win.PIDFrom = int(pid), PIDFromNetWM
		} else if pid := d.clientPID(w); pid > 0 {
			win.PID, win.PIDFrom = pid, PIDFromXRes
		}
		out = append(out, win)
	}
	return out, nil
}

// client finds the client window at or below w, depth levels down at most: the one with WM_STATE (a window
// manager sets it on the windows it manages, not on its frames), else, without a window manager, w itself when it
// has a title, else the first titled one below.
func (d *Display) client(w xproto.Window, depth int) (xproto.Window, bool) {
	if c, ok := d.find(w, depth, func(w xproto.Window) bool { return d.has(w, "WM_STATE") }); ok {
		return c, true
	}
	return d.find(w, depth, func(w xproto.Window) bool { return d.title(w) != "" })
}

// find is the first window, in pre-order, at or below w (depth levels down at most) for which is holds.
func (d *Display) find(w xproto.Window, depth int, is func(xproto.Window) bool) (xproto.Window, bool) {
	if is(w) {
		return w, true
	}
	if depth == 0 {
		return 0, false
	}
	tree, err := xproto.QueryTree(d.c, w).Reply()
	if err != nil {
		return 0, false
	}
	for _, c := range tree.Children {
		if found, ok := d.find(c, depth-1, is); ok {
			return found, true
		}
	}
	return 0, false
}

// clientPID asks the X server for the PID of the client that made w (0: unknown, or a client that is not local).
func (d *Display) clientPID(w xproto.Window) int {
	if !d.xres {
		return 0
	}
	r, err := res.QueryClientIds(d.c, 1, []res.ClientIdSpec{{Client: uint32(w), Mask: res.ClientIdMaskLocalClientPID}}).Reply()
	if err != nil {
		return 0
	}
	for _, id := range r.Ids {
		if id.Spec.Mask&res.ClientIdMaskLocalClientPID != 0 && len(id.Value) > 0 {
			return int(id.Value[0])
		}
	}
	return 0
}

// atom is name's atom, 0 when no client has interned it (so no window has such a property). A Display is used
// by one goroutine: the cache needs no lock.
func (d *Display) atom(name string) xproto.Atom {
	if a, ok := d.atoms[name]; ok {
		return a
	}
	r, err := xproto.InternAtom(d.c, true, uint16(len(name)), name).Reply()
	if err != nil {
		return 0
	}
	if r.Atom != 0 {
		d.atoms[name] = r.Atom // an atom that does not exist yet may by the next question
	}
	return r.Atom
}

// property reads w's property name (any type), at most 64 KiB.
func (d *Display) property(w xproto.Window, name string) (*xproto.GetPropertyReply, bool) {
	a := d.atom(name)
	if a == 0 {
		return nil, false
	}
	r, err := xproto.GetProperty(d.c, false, w, a, xproto.GetPropertyTypeAny, 0, 16384).Reply()
	if err != nil || r.Type == 0 {
		return nil, false
	}
	return r, true
}

// has says whether w has the property name.
func (d *Display) has(w xproto.Window, name string) bool {
	_, ok := d.property(w, name)
	return ok
}

// cardinal reads a 32-bit property's first value.
func (d *Display) cardinal(w xproto.Window, name string) (uint32, bool) {
	r, ok := d.property(w, name)
	if !ok || r.Format != 32 || len(r.Value) < 4 {
		return 0, false
	}
	return xgb.Get32(r.Value), true
}

// title reads _NET_WM_NAME, else WM_NAME.
func (d *Display) title(w xproto.Window) string {
	for _, name := range []string{"_NET_WM_NAME", "WM_NAME"} {
		if r, ok := d.property(w, name); ok && r.Format == 8 && len(r.Value) > 0 {
			return string(r.Value)
		}
	}
	return ""
}
