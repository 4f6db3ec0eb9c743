//go:build linux

package x11

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/axbus/axbus/internal/testkit"
)

// next is the recorder's next event, or fails t after two seconds.
func (r *Recorder) next(t *testing.T, what string) InputEvent {
	t.Helper()
	select {
	case ev, ok := <-r.Events():
		if !ok {
			t.Fatalf("events closed before %s", what)
		}
		return ev
	case <-time.After(2 * time.Second):
		t.Fatalf("no %s recorded within 2s", what)
	}
	return InputEvent{}
}

// What XTEST makes, as a person's mouse and keyboard would, is recorded from another connection
// in order: a click at its root point, typed text with its shift, a shortcut, Return.
func TestRecorder(t *testing.T) {
	s := desktop(t)
	x := dial(t, s)
	if !x.HasXTest() {
		t.Fatal("Xvfb without XTEST")
	}
	show(t, s, "record", 20, 30, 300, 200)
	testkit.Eventually(t, 2*time.Second, "the window mapped", func() bool { return only(t, x).Mapped })

	start := time.Now()
	r, err := OpenRecorder(s.Display, s.XAuthority)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	t.Logf("recorder open in %v", time.Since(start))

	sent := time.Now()
	if err := x.Click(os.Getpid(), 70, 90, 1, 1); err != nil {
		t.Fatal(err)
	}
	if b := r.next(t, "the button press"); b.Kind != "button" || b.Button != 1 || b.X != 70 || b.Y != 90 {
		t.Errorf("recorded %+v, want button 1 at root (70, 90)", b)
	} else {
		t.Logf("button press recorded %v after the click began", b.Time.Sub(sent))
	}

	strokes := []Keystroke{{Key: 'A'}, {Key: 'b'}, {Key: '1'}, {Mods: []uint32{0xffe3}, Key: 's'}, {Key: 0xff0d}}
	if err := x.Tap(context.Background(), os.Getpid(), strokes); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text, name string
		mods       []string
		sym        uint32
	}{
		{"A", "A", []string{"shift"}, 'A'},
		{"b", "b", nil, 'b'},
		{"1", "1", nil, '1'},
		{"", "s", []string{"ctrl"}, 's'},
		{"", "Return", nil, 0xff0d},
	}
	for _, w := range want {
		k := r.next(t, "the key "+w.name)
		if k.Kind != "key" || k.Text != w.text || k.Name != w.name || k.Keysym != w.sym || !slices.Equal(k.Mods, w.mods) {
			t.Errorf("recorded %+v, want key %q typing %q with %v", k, w.name, w.text, w.mods)
		}
	}
	if n := r.Dropped(); n != 0 {
		t.Errorf("%d events dropped with a reader that keeps up", n)
	}

	// Close ends the stream.
	r.Close()
	select {
	case ev, ok := <-r.Events():
		if ok {
			t.Errorf("after Close: %+v, want the stream closed", ev)
		}
	case <-time.After(2 * time.Second):
		t.Error("the stream is not closed 2s after Close")
	}
}

// The names and text of keys are X's.
func TestKeysymNames(t *testing.T) {
	for sym, name := range map[uint32]string{0xff0d: "Return", 0xffc2: "F5", 'a': "a", 0x20: "space", 0x10020ac: "€", 0xfe50: "0xfe50"} {
		if got := keysymName(sym); got != name {
			t.Errorf("keysymName(0x%x) = %q, want %q", sym, got, name)
		}
	}
	if !isModifierKey(0xffe3) || isModifierKey('s') {
		t.Error("Control_L is a modifier key, s is not")
	}
}
