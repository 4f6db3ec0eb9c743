package atspi

import (
	"slices"
	"testing"
)

func TestRuneKeysym(t *testing.T) {
	cases := map[rune]uint32{
		'a': 'a', 'Z': 'Z', ' ': ' ', '~': '~', 'é': 0xe9, 'ö': 0xf6, 'ÿ': 0xff,
		'✓': 0x01002713, '€': 0x010020ac, '\n': xkReturn, '\t': xkTab, '\b': xkBackSpace, 0x1b: xkEscape,
	}
	for r, want := range cases {
		if got := RuneKeysym(r); got != want {
			t.Errorf("RuneKeysym(%q) = %#x, want %#x", r, got, want)
		}
	}
}

func TestParseKeys(t *testing.T) {
	cases := []struct {
		in   string
		want []KeyCombo
	}{
		{"ctrl+a", []KeyCombo{{Mods: []uint32{xkControlL}, Key: 'a'}}},
		{"Return", []KeyCombo{{Key: xkReturn}}},
		{"shift+Tab", []KeyCombo{{Mods: []uint32{xkShiftL}, Key: xkTab}}},
		{"ctrl+shift+s", []KeyCombo{{Mods: []uint32{xkControlL, xkShiftL}, Key: 's'}}},
		{"ctrl++", []KeyCombo{{Mods: []uint32{xkControlL}, Key: '+'}}},
		{"+", []KeyCombo{{Key: '+'}}},
		{"alt+F4", []KeyCombo{{Mods: []uint32{xkAltL}, Key: 0xffc1}}},
		{"ctrl+a BackSpace", []KeyCombo{{Mods: []uint32{xkControlL}, Key: 'a'}, {Key: xkBackSpace}}},
		{"super+0xff0d", []KeyCombo{{Mods: []uint32{xkSuperL}, Key: 0xff0d}}},
		{"é", []KeyCombo{{Key: 0xe9}}},
		{"Page_Down", []KeyCombo{{Key: 0xff56}}},
	}
	for _, c := range cases {
		got, err := ParseKeys(c.in)
		if err != nil {
			t.Errorf("ParseKeys(%q): %v", c.in, err)
			continue
		}
		if !slices.EqualFunc(got, c.want, func(a, b KeyCombo) bool { return a.Key == b.Key && slices.Equal(a.Mods, b.Mods) }) {
			t.Errorf("ParseKeys(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"", "   ", "ctrl+", "hyper+a", "NoSuchKey", "ctrl+NoSuchKey", "F99", "a++b"} {
		if got, err := ParseKeys(bad); err == nil {
			t.Errorf("ParseKeys(%q) = %+v, want an error", bad, got)
		}
	}
}
