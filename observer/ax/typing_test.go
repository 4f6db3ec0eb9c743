package ax

import (
	"slices"
	"testing"
)

func TestTextCombosUseRealKeyCodes(t *testing.T) {
	type press struct {
		shift bool
		code  uint16
		text  string
	}
	want := []press{
		{false, 0x0B, "b"}, {true, 0x00, "A"}, {false, 0x31, " "}, {false, 0x12, "1"}, {true, 0x12, "!"},
		{true, 0x18, "+"}, {false, 0x18, "="}, {true, 0x27, "\""}, {true, 0x32, "~"},
		{false, keyUnicodeCarrier, "é"}, {false, keyUnicodeCarrier, "😀"},
	}
	got := textCombos("bA 1!+=\"~é😀")
	if len(got) != len(want) {
		t.Fatalf("%d presses, want %d: %+v", len(got), len(want), got)
	}
	for i, c := range got {
		p := press{slices.Contains(c.mods, modShift), c.code, c.text}
		if p != want[i] || len(c.mods) > 1 {
			t.Errorf("press %d = %+v (mods %v), want %+v", i, p, c.mods, want[i])
		}
	}
}

func TestTextCombosEveryLetterHasItsKey(t *testing.T) {
	// Before, every character was key code 0 (kVK_ANSI_A) with its string: an app that reads the
	// key code typed "a" for all of them.
	for _, c := range textCombos("abcdefghijklmnopqrstuvwxyz") {
		if want := eventsH[rune(c.text[0])]; c.code != want || len(c.mods) != 0 {
			t.Errorf("%q: code 0x%02X mods %v, want 0x%02X", c.text, c.code, c.mods, want)
		}
	}
}

func TestTextCombosLineBreaks(t *testing.T) {
	got := textCombos("a\nb\r\nc\rd\te")
	var codes []uint16
	for _, c := range got {
		codes = append(codes, c.code)
		if (c.code == keyReturn || c.code == keyTab) && c.text != "" {
			t.Errorf("key 0x%02X carries text %q", c.code, c.text)
		}
	}
	want := []uint16{0x00, keyReturn, 0x0B, keyReturn, 0x08, keyReturn, 0x02, keyTab, 0x0E}
	if !slices.Equal(codes, want) {
		t.Errorf("codes %x, want %x (\"\\r\\n\" is one Return)", codes, want)
	}
}

func TestTextCombosEmpty(t *testing.T) {
	if got := textCombos(""); len(got) != 0 {
		t.Errorf("textCombos(\"\") = %+v", got)
	}
}
