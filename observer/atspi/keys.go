package atspi

import (
	"fmt"
	"github.com/axbus/axbus/observer"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The X11 keysyms (X11/keysymdef.h) that physical input uses by name.
const (
	xkBackSpace = 0xff08
	xkTab       = 0xff09
	xkReturn    = 0xff0d
	xkEscape    = 0xff1b
	xkDelete    = 0xffff
	xkShiftL    = 0xffe1
	xkControlL  = 0xffe3
	xkAltL      = 0xffe9
	xkSuperL    = 0xffeb
	xkLevel3    = 0xfe03 // ISO_Level3_Shift (AltGr)
	xkLeftTab   = 0xfe20 // ISO_Left_Tab: what shift+Tab produces
	unicodeFlag = 0x01000000
)

// keyNames maps key names (lower case) onto keysyms: the X11 names and common aliases.
var keyNames = map[string]uint32{
	"return": xkReturn, "enter": xkReturn, "kp_enter": 0xff8d,
	"tab": xkTab, "iso_left_tab": xkLeftTab,
	"backspace": xkBackSpace, "escape": xkEscape, "esc": xkEscape,
	"delete": xkDelete, "del": xkDelete, "insert": 0xff63, "ins": 0xff63,
	"home": 0xff50, "end": 0xff57, "left": 0xff51, "up": 0xff52, "right": 0xff53, "down": 0xff54,
	"prior": 0xff55, "pageup": 0xff55, "page_up": 0xff55, "pgup": 0xff55,
	"next": 0xff56, "pagedown": 0xff56, "page_down": 0xff56, "pgdn": 0xff56,
	"space": ' ', "plus": '+', "minus": '-', "comma": ',', "period": '.', "slash": '/', "backslash": '\\',
	"menu": 0xff67, "print": 0xff61, "pause": 0xff13, "caps_lock": 0xffe5, "num_lock": 0xff7f,
	"scroll_lock": 0xff14,
	"shift":       xkShiftL, "shift_l": xkShiftL, "shift_r": 0xffe2,
	"ctrl": xkControlL, "control": xkControlL, "control_l": xkControlL, "control_r": 0xffe4,
	"alt": xkAltL, "alt_l": xkAltL, "alt_r": 0xffea, "meta": xkSuperL,
	"super": xkSuperL, "super_l": xkSuperL, "super_r": 0xffec, "win": xkSuperL, "cmd": xkSuperL,
	"altgr": xkLevel3, "iso_level3_shift": xkLevel3,
}

// modifierNames are the names accepted before the last "+" of a combination.
var modifierNames = map[string]uint32{
	"shift": xkShiftL, "ctrl": xkControlL, "control": xkControlL, "alt": xkAltL, "meta": xkSuperL,
	"super": xkSuperL, "win": xkSuperL, "cmd": xkSuperL, "altgr": xkLevel3,
}

// RuneKeysym is the X11 keysym that types r: Latin-1 characters are their own keysym, control
// characters their function keys (newline is Return, tab Tab), anything else the Unicode keysym
// 0x01000000 + r.
func RuneKeysym(r rune) uint32 {
	switch r {
	case '\n', '\r':
		return xkReturn
	case '\t':
		return xkTab
	case '\b':
		return xkBackSpace
	case 0x1b:
		return xkEscape
	case 0x7f:
		return xkDelete
	}
	if (r >= 0x20 && r <= 0x7e) || (r >= 0xa0 && r <= 0xff) {
		return uint32(r)
	}
	return unicodeFlag | uint32(r)
}

// KeyCombo is one key combination: modifiers held while Key is pressed.
type KeyCombo struct {
	Mods []uint32
	Key  uint32
}

// ParseKeys parses a key sequence (observer.SplitKeys) into keysyms. A key is a name
// ("Return", "F5", "Left"), a single character, or a keysym in hex ("0xff0d").
func ParseKeys(s string) ([]KeyCombo, error) {
	chords, err := observer.SplitKeys(s)
	if err != nil {
		return nil, err
	}
	out := make([]KeyCombo, 0, len(chords))
	for _, ch := range chords {
		var c KeyCombo
		for _, name := range ch.Mods {
			m, ok := modifierNames[strings.ToLower(name)]
			if !ok {
				return nil, fmt.Errorf("unknown modifier %q in %q (use shift, ctrl, alt, super, altgr)", name, s)
			}
			c.Mods = append(c.Mods, m)
		}
		if c.Key, err = keysymOf(ch.Key); err != nil {
			return nil, fmt.Errorf("%w in %q", err, s)
		}
		out = append(out, c)
	}
	return out, nil
}

// keysymOf resolves one key name.
func keysymOf(name string) (uint32, error) {
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		return RuneKeysym(r), nil
	}
	l := strings.ToLower(name)
	if k, ok := keyNames[l]; ok {
		return k, nil
	}
	if n, ok := strings.CutPrefix(l, "f"); ok {
		if f, err := strconv.Atoi(n); err == nil && f >= 1 && f <= 35 {
			return 0xffbe + uint32(f-1), nil // F1..F35
		}
	}
	if h, ok := strings.CutPrefix(l, "0x"); ok {
		if v, err := strconv.ParseUint(h, 16, 32); err == nil && v > 0 {
			return uint32(v), nil
		}
	}
	return 0, fmt.Errorf("unknown key %q", name)
}
