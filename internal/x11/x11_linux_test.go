//go:build linux

package x11

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/axbus/axbus/internal/headless"
	"github.com/axbus/axbus/internal/testkit"
	"github.com/axbus/axbus/internal/xauth"
)

// The tests run on a private headless session's Xvfb (no window manager), against a window this
// process shows as a toolkit would: titled, with its _NET_WM_PID.

func desktop(t *testing.T) *headless.Session {
	t.Helper()
	if err := headless.Available(); err != nil {
		t.Fatalf("%v (make deps installs it)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := headless.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func dial(t *testing.T, s *headless.Session) *Conn {
	t.Helper()
	x, err := Dial(s.Display, s.XAuthority)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(x.Close)
	return x
}

// client is the app's side: its own connection, a window and the events it gets.
type client struct {
	c      *xgb.Conn
	win    xproto.Window
	events chan xgb.Event
}

// show maps a w by h window at (left, top), painted red, titled, owned by this process, that
// hears keys and buttons.
func show(t *testing.T, s *headless.Session, title string, left, top, w, h int) *client {
	t.Helper()
	c, err := xauth.Dial(s.Display, s.XAuthority)
	if err != nil {
		t.Fatal(err)
	}
	cl := &client{c: c, events: make(chan xgb.Event, 64)}
	read := make(chan struct{})
	go func() {
		defer close(read)
		for {
			ev, err := c.WaitForEvent()
			if ev == nil && err == nil {
				return
			}
			if ev != nil {
				select {
				case cl.events <- ev:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		c.Close()
		<-read
	})
	root := xproto.Setup(c).DefaultScreen(c).Root
	if cl.win, err = xproto.NewWindowId(c); err != nil {
		t.Fatal(err)
	}
	mask := uint32(xproto.EventMaskKeyPress | xproto.EventMaskButtonPress | xproto.EventMaskFocusChange)
	if err := xproto.CreateWindowChecked(c, 0, cl.win, root, int16(left), int16(top), uint16(w), uint16(h), 0,
		xproto.WindowClassInputOutput, 0, xproto.CwBackPixel|xproto.CwEventMask, []uint32{0xff0000, mask}).Check(); err != nil {
		t.Fatal(err)
	}
	atom := func(name string) xproto.Atom {
		r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			t.Fatal(err)
		}
		return r.Atom
	}
	pid := make([]byte, 4)
	xgb.Put32(pid, uint32(os.Getpid()))
	xproto.ChangeProperty(c, xproto.PropModeReplace, cl.win, atom("_NET_WM_PID"), xproto.AtomCardinal, 32, 1, pid)
	xproto.ChangeProperty(c, xproto.PropModeReplace, cl.win, atom("_NET_WM_NAME"), atom("UTF8_STRING"), 8, uint32(len(title)), []byte(title))
	if err := xproto.MapWindowChecked(c, cl.win).Check(); err != nil {
		t.Fatal(err)
	}
	return cl
}

// next is the next event of the window that is, or fails t after two seconds.
func (cl *client) next(t *testing.T, what string, is func(xgb.Event) bool) xgb.Event {
	t.Helper()
	deadline := time.After(2 * time.Second)
	for {
		select {
		case ev := <-cl.events:
			if is(ev) {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %s within 2s", what)
		}
	}
}

// only returns the one window of this process, failing t when there is not exactly one.
func only(t *testing.T, x *Conn) Window {
	t.Helper()
	wins, err := x.WindowsOf(os.Getpid())
	if err != nil || len(wins) != 1 {
		t.Fatalf("windows of this process: %+v %v, want one", wins, err)
	}
	return wins[0]
}

// The windows of a process are found by their _NET_WM_PID, where they are; moves, resizes, an
// iconify and a restore are done as a window manager would, and the screen shows the window.
func TestWindowsOfAProcess(t *testing.T) {
	s := desktop(t)
	x := dial(t, s)
	cl := show(t, s, "Zürich ✓", 10, 20, 200, 100)

	var w Window
	testkit.Eventually(t, 2*time.Second, "the window mapped", func() bool {
		w = only(t, x)
		return w.Mapped
	})
	if w.Title != "Zürich ✓" || w.X != 10 || w.Y != 20 || w.W != 200 || w.H != 100 || w.id != cl.win {
		t.Fatalf("the window reads %+v", w)
	}
	if got, ok := x.windowAt(os.Getpid(), 50, 50); !ok || got.id != cl.win {
		t.Errorf("windowAt(50, 50) = %+v %v", got, ok)
	}
	if got, ok := x.windowAt(os.Getpid(), 900, 900); !ok || got.id != cl.win {
		t.Errorf("windowAt off the window = %+v %v, want the top-most one", got, ok)
	}
	if wins, err := x.WindowsOf(os.Getpid() + 1); err != nil || len(wins) != 0 {
		t.Errorf("windows of another pid: %+v %v", wins, err)
	}

	sw, sh := x.ScreenSize()
	if sw < 200 || sh < 100 {
		t.Fatalf("screen %dx%d", sw, sh)
	}
	testkit.Eventually(t, 2*time.Second, "the window's red on screen", func() bool {
		img, err := x.Capture(context.Background(), 10, 20, 200, 100)
		if err != nil {
			t.Fatal(err)
		}
		c := img.RGBAAt(100, 50)
		return img.Bounds().Dx() == 200 && img.Bounds().Dy() == 100 && c.R == 0xff && c.G == 0 && c.B == 0 && c.A == 0xff
	})

	if err := x.Move(w, 40, 60); err != nil {
		t.Fatal(err)
	}
	if err := x.Resize(w, 300, 150); err != nil {
		t.Fatal(err)
	}
	if w = only(t, x); w.X != 40 || w.Y != 60 || w.W != 300 || w.H != 150 {
		t.Errorf("moved and resized, the window reads %+v", w)
	}
	if cached, err := x.CachedWindowsOf(os.Getpid()); err != nil || len(cached) != 1 || cached[0] != w {
		t.Errorf("cached windows %+v %v, want what was just read", cached, err)
	}

	if err := x.Iconify(w); err != nil {
		t.Fatal(err)
	}
	if w = only(t, x); w.Mapped {
		t.Errorf("iconified, the window is mapped")
	}
	if state := x.wmState(t, w); state != wmStateIconic {
		t.Errorf("iconified, WM_STATE is %d", state)
	}
	x.Restore(w)
	x.Activate(w)
	if w = only(t, x); !w.Mapped {
		t.Errorf("restored, the window is not mapped")
	}
	if state := x.wmState(t, w); state != wmStateNormal {
		t.Errorf("restored, WM_STATE is %d", state)
	}
	if f, err := xproto.GetInputFocus(x.c).Reply(); err != nil || f.Focus != w.id {
		t.Errorf("activated, the focus is on %v (%v), want the window %v", f, err, w.id)
	}
}

func (x *Conn) wmState(t *testing.T, w Window) uint32 {
	t.Helper()
	x.mu.Lock()
	defer x.mu.Unlock()
	a := x.atom("WM_STATE")
	r, err := xproto.GetProperty(x.c, false, w.id, a, a, 0, 2).Reply()
	if err != nil || len(r.Value) < 4 {
		t.Fatalf("WM_STATE: %v %v", r, err)
	}
	return xgb.Get32(r.Value)
}

// A click lands on the window under the point; keys typed reach the focused window, those the
// keyboard map lacks on a keycode bound for them and given back afterwards.
func TestClickAndTap(t *testing.T) {
	s := desktop(t)
	x := dial(t, s)
	if !x.HasXTest() {
		t.Fatal("Xvfb without XTEST")
	}
	cl := show(t, s, "input", 0, 0, 300, 200)
	testkit.Eventually(t, 2*time.Second, "the window mapped", func() bool { return only(t, x).Mapped })

	if err := x.Click(os.Getpid(), 30, 40, 1, 2); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		ev := cl.next(t, "button press", func(ev xgb.Event) bool { _, ok := ev.(xproto.ButtonPressEvent); return ok })
		if b := ev.(xproto.ButtonPressEvent); b.Detail != 1 || b.EventX != 30 || b.EventY != 40 {
			t.Errorf("button press %+v, want button 1 at (30, 40)", b)
		}
	}

	const smiley = 0x100263a // U+263A, on no keyboard map
	if err := x.Tap(context.Background(), os.Getpid(), []Keystroke{{Key: 'a'}, {Key: smiley}}); err != nil {
		t.Fatal(err)
	}
	isKey := func(ev xgb.Event) bool { _, ok := ev.(xproto.KeyPressEvent); return ok }
	a := cl.next(t, "the key a", isKey).(xproto.KeyPressEvent)
	b := cl.next(t, "the smiley's key", isKey).(xproto.KeyPressEvent)
	x.mu.Lock()
	if code, _, ok := x.keys.find('a'); !ok || code != a.Detail {
		t.Errorf("a pressed keycode %d, the map has it at %d (%v)", a.Detail, code, ok)
	}
	if code, ok := x.keys.bound[smiley]; !ok || code != b.Detail {
		t.Errorf("the smiley pressed keycode %d, bound to %d (%v)", b.Detail, code, ok)
	}
	x.mu.Unlock()
	testkit.Eventually(t, 3*restoreDelay, "the bound keycode given back", func() bool {
		x.mu.Lock()
		defer x.mu.Unlock()
		return len(x.keys.bound) == 0
	})
}
