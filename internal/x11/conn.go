package x11

import (
	"errors"
	"io"
	"log"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"github.com/axbus/axbus/internal/xauth"
)

// quietXGB silences xgb's package logger once.
var quietXGB sync.Once

// silenceXGB silences xgb's package logger, which logs a missing ~/.Xauthority to stderr.
func silenceXGB() { quietXGB.Do(func() { xgb.Logger = log.New(io.Discard, "", 0) }) }

// Conn is a connection to the X server for windows, input and the screen. Its methods may be
// called from any goroutine.
type Conn struct {
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

// ErrNoXTest says that the X server lacks the XTEST extension, which input needs.
var ErrNoXTest = errors.New("the X server has no XTEST extension")

// Dial connects to display with the MIT-MAGIC-COOKIE-1 xauthority holds for it ("":
// $XAUTHORITY, else ~/.Xauthority). Its error is xauth.Dial's.
func Dial(display, xauthority string) (*Conn, error) {
	silenceXGB()
	c, err := xauth.Dial(display, xauthority)
	if err != nil {
		return nil, err
	}
	setup := xproto.Setup(c)
	x := &Conn{
		c: c, root: setup.DefaultScreen(c).Root, atoms: map[string]xproto.Atom{},
		minKey: setup.MinKeycode, maxKey: setup.MaxKeycode, origins: map[int]cachedWindows{},
	}
	if err := xtest.Init(c); err == nil {
		x.xtest = true
	}
	return x, nil
}

// HasXTest reports whether the server has the XTEST extension, without which Click and Tap fail.
func (x *Conn) HasXTest() bool { return x.xtest }

// Close gives back the keycodes bound for typing, closes the connection and waits for xgb's
// goroutines to end.
func (x *Conn) Close() {
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
func (x *Conn) atom(name string) xproto.Atom {
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
func (x *Conn) cardinal(w xproto.Window, prop string) (uint32, bool) {
	r, err := xproto.GetProperty(x.c, false, w, x.atom(prop), xproto.AtomCardinal, 0, 1).Reply()
	if err != nil || r.Format != 32 || len(r.Value) < 4 {
		return 0, false
	}
	return xgb.Get32(r.Value), true
}

// title reads _NET_WM_NAME, else WM_NAME. Callers hold x.mu.
func (x *Conn) title(w xproto.Window) string {
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

// sync waits until the X server has handled every request sent so far. Callers hold x.mu.
func (x *Conn) sync() { _, _ = xproto.GetInputFocus(x.c).Reply() }

// hasWMLocked reports whether an EWMH window manager runs (_NET_SUPPORTING_WM_CHECK on the root).
func (x *Conn) hasWMLocked() bool {
	r, err := xproto.GetProperty(x.c, false, x.root, x.atom("_NET_SUPPORTING_WM_CHECK"), xproto.AtomWindow, 0, 1).Reply()
	return err == nil && r.Format == 32 && len(r.Value) >= 4
}
