package ax

import (
	"testing"
	"unicode"
)

// Key codes from HIToolbox/Events.h, spelled out here rather than taken from usLayout.
var eventsH = map[rune]uint16{
	'a': 0x00, 's': 0x01, 'd': 0x02, 'f': 0x03, 'h': 0x04, 'g': 0x05, 'z': 0x06, 'x': 0x07, 'c': 0x08, 'v': 0x09,
	'b': 0x0B, 'q': 0x0C, 'w': 0x0D, 'e': 0x0E, 'r': 0x0F, 'y': 0x10, 't': 0x11, '1': 0x12, '2': 0x13, '3': 0x14,
	'4': 0x15, '6': 0x16, '5': 0x17, '=': 0x18, '9': 0x19, '7': 0x1A, '-': 0x1B, '8': 0x1C, '0': 0x1D, ']': 0x1E,
	'o': 0x1F, 'u': 0x20, '[': 0x21, 'i': 0x22, 'p': 0x23, 'l': 0x25, 'j': 0x26, '\'': 0x27, 'k': 0x28, ';': 0x29,
	'\\': 0x2A, ',': 0x2B, '/': 0x2C, 'n': 0x2D, 'm': 0x2E, '.': 0x2F, ' ': 0x31, '`': 0x32,
}

// The US layout's shifted characters and the key each is on.
var shiftedOn = map[rune]rune{
	'!': '1', '@': '2', '#': '3', '$': '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0',
	'_': '-', '+': '=', '{': '[', '}': ']', '|': '\\', ':': ';', '"': '\'', '<': ',', '>': '.', '?': '/', '~': '`',
}

func TestCharStrokeCoversPrintableASCII(t *testing.T) {
	for r := rune(0x20); r <= 0x7E; r++ {
		s, ok := charStroke(r)
		if !ok {
			t.Errorf("no stroke types %q", r)
			continue
		}
		var base rune
		var shift bool
		switch {
		case unicode.IsUpper(r):
			base, shift = unicode.ToLower(r), true
		case shiftedOn[r] != 0:
			base, shift = shiftedOn[r], true
		default:
			base = r
		}
		if want := (keyStroke{eventsH[base], shift}); s != want {
			t.Errorf("%q: stroke %+v, want %+v", r, s, want)
		}
		if got := strokeChar(s); got != r {
			t.Errorf("%q: stroke %+v types %q", r, s, got)
		}
	}
}

func TestCharStrokeOnlyForUSKeys(t *testing.T) {
	for _, r := range []rune{'é', 'ß', '€', '日', '😀', '\x00', '\x1b', '\x7f', '\n', '\t'} {
		if s, ok := charStroke(r); ok {
			t.Errorf("%q has stroke %+v: no key of the US layout types it", r, s)
		}
	}
}

func TestUSLayoutHasEachKeyOnce(t *testing.T) {
	seen := map[uint16]rune{}
	for _, k := range usLayout {
		if prev, ok := seen[k.code]; ok {
			t.Errorf("key 0x%02X types both %q and %q", k.code, prev, k.plain)
		}
		seen[k.code] = k.plain
	}
	if len(seen) != len(eventsH) {
		t.Errorf("%d character keys, Events.h has %d", len(seen), len(eventsH))
	}
}

func TestNamedKeyPlusHoldsShift(t *testing.T) {
	if s := namedKeys["plus"]; s != (keyStroke{code: 0x18, shift: true}) {
		t.Errorf("plus = %+v, want the = key (0x18) with shift", s)
	}
	// Each name of a character key is the stroke of that character.
	for name, r := range map[string]rune{"plus": '+', "minus": '-', "comma": ',', "period": '.', "slash": '/',
		"backslash": '\\', "space": ' '} {
		want, _ := charStroke(r)
		if got := namedKeys[name]; got != want {
			t.Errorf("%s = %+v, want %+v, the stroke of %q", name, got, want, r)
		}
	}
}

func TestNamedKeysNeedNoShiftButPlus(t *testing.T) {
	for name, s := range namedKeys {
		if s.shift != (name == "plus") {
			t.Errorf("%s: shift %v", name, s.shift)
		}
	}
}
