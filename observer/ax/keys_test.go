package ax

import (
	"slices"
	"testing"
)

func TestParseKeys(t *testing.T) {
	for _, tc := range []struct {
		keys string
		mods []modifier
		code uint16
		text string
	}{
		{"plus", []modifier{modShift}, 0x18, "+"},
		{"cmd+plus", []modifier{modCommand, modShift}, 0x18, "+"},
		{"cmd++", []modifier{modCommand, modShift}, 0x18, "+"},
		{"shift+plus", []modifier{modShift}, 0x18, "+"}, // shift once
		{"cmd+=", []modifier{modCommand}, 0x18, "="},
		{"cmd+minus", []modifier{modCommand}, 0x1B, "-"},
		{"shift+minus", []modifier{modShift}, 0x1B, "_"},
		{"cmd+a", []modifier{modCommand}, 0x00, "a"},
		{"cmd+A", []modifier{modCommand, modShift}, 0x00, "A"},
		{"shift+a", []modifier{modShift}, 0x00, "A"},
		{"ctrl+b", []modifier{modControl}, 0x0B, "b"},
		{"shift+1", []modifier{modShift}, 0x12, "!"},
		{"?", []modifier{modShift}, 0x2C, "?"},
		{"space", nil, 0x31, " "},
		{"Return", nil, 0x24, ""},
		{"shift+Tab", []modifier{modShift}, 0x30, ""},
		{"alt+Left", []modifier{modOption}, 0x7B, ""},
		{"BackSpace", nil, 0x33, ""},
		{"Delete", nil, 0x75, ""},
		{"F1", nil, 0x7A, ""},
		{"f20", nil, 0x5A, ""},
	} {
		got, err := parseKeys(tc.keys)
		if err != nil {
			t.Errorf("%q: %v", tc.keys, err)
			continue
		}
		if len(got) != 1 {
			t.Errorf("%q: %d combinations", tc.keys, len(got))
			continue
		}
		c := got[0]
		if !slices.Equal(c.mods, tc.mods) || c.code != tc.code || c.text != tc.text {
			t.Errorf("%q = mods %v code 0x%02X text %q, want mods %v code 0x%02X text %q",
				tc.keys, c.mods, c.code, c.text, tc.mods, tc.code, tc.text)
		}
	}
}

func TestParseKeysSequence(t *testing.T) {
	got, err := parseKeys("cmd+a BackSpace")
	if err != nil || len(got) != 2 || got[0].code != 0x00 || got[1].code != 0x33 {
		t.Fatalf("parseKeys = %+v, %v", got, err)
	}
	if f := got[0].flags(); f != flagCommand {
		t.Errorf("cmd+a flags 0x%X, want 0x%X", f, flagCommand)
	}
}

func TestParseKeysRefuses(t *testing.T) {
	for _, keys := range []string{"", "hyper+a", "é", "cmd+é", "F0", "F21", "nosuchkey", "cmd+"} {
		if got, err := parseKeys(keys); err == nil {
			t.Errorf("%q parsed as %+v", keys, got)
		}
	}
}
