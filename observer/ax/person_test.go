package ax

import (
	"slices"
	"testing"
	"time"
)

// A tap's events become what a recording of a person takes: buttons at their points, keys with
// their names, their text unless a shortcut, and the modifiers held.
func TestPersonInput(t *testing.T) {
	at := time.Unix(1, 0)
	click := personInput(tapEvent{typ: cgEventLeftMouseDown, x: 10.5, y: 20}, at)
	if click.Key || click.Button != 1 || click.X != 10.5 || click.Y != 20 || !click.Time.Equal(at) {
		t.Fatalf("a left click: %+v", click)
	}
	if r := personInput(tapEvent{typ: cgEventRightMouseDown}, at); r.Button != 3 {
		t.Fatalf("a right click: %+v", r)
	}
	for _, c := range []struct {
		e          tapEvent
		name, text string
		mods       []string
	}{
		{tapEvent{typ: cgEventKeyDown, code: 0x00, text: "a"}, "a", "a", nil},
		{tapEvent{typ: cgEventKeyDown, code: 0x00, text: "A", flags: flagShift}, "a", "A", []string{"shift"}},
		{tapEvent{typ: cgEventKeyDown, code: 0x01, text: "\x13", flags: flagCommand}, "s", "", []string{"super"}},
		{tapEvent{typ: cgEventKeyDown, code: 0x01, text: "ß", flags: flagOption}, "s", "", []string{"alt"}},
		{tapEvent{typ: cgEventKeyDown, code: keyReturn, text: "\r"}, "Return", "", nil},
		{tapEvent{typ: cgEventKeyDown, code: 0x31, text: " "}, "space", " ", nil},
		{tapEvent{typ: cgEventKeyDown, code: functionKeys[4]}, "F5", "", nil},
		{tapEvent{typ: cgEventKeyDown, code: functionKeys[11]}, "F12", "", nil},
		{tapEvent{typ: cgEventKeyDown, code: 0x0E, text: "é"}, "e", "é", nil}, // a layout's own character
		{tapEvent{typ: cgEventKeyDown, code: 0x7B, flags: flagControl | flagShift}, "Left", "", []string{"shift", "ctrl"}},
	} {
		in := personInput(c.e, at)
		if !in.Key || in.Name != c.name || in.Text != c.text || !slices.Equal(in.Mods, c.mods) {
			t.Errorf("key %#x %q flags %#x: %+v, want name %q text %q mods %v", c.e.code, c.e.text, c.e.flags, in, c.name, c.text, c.mods)
		}
	}
}

// Every key name a recording writes is one a key step takes back, for the same key.
func TestPersonKeyNamesParse(t *testing.T) {
	for code, name := range keyNames {
		if s, err := keyStrokeOf(name); err != nil || s.code != code {
			t.Errorf("%s (%#x) parses as %+v, %v", name, code, s, err)
		}
	}
}
