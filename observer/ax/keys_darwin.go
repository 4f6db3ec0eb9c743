package ax

import (
	"fmt"
	"github.com/axbus/axbus/observer"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Key combinations for physical input, as macOS virtual key codes (HIToolbox/Events.h, the
// ANSI layout). A key code names a physical key, whatever the keyboard layout prints on it; a
// key that types a character also carries that character, which is what apps match shortcuts
// against, so "cmd+a" selects all on an AZERTY keyboard too.

// The CGEventFlags of the modifiers.
const (
	flagShift   = 0x20000
	flagControl = 0x40000
	flagOption  = 0x80000
	flagCommand = 0x100000
	flagFn      = 0x800000
)

// modifier is a modifier key: its key code and flag.
type modifier struct {
	code uint16
	flag uint64
}

var (
	modShift   = modifier{0x38, flagShift}
	modControl = modifier{0x3B, flagControl}
	modOption  = modifier{0x3A, flagOption}
	modCommand = modifier{0x37, flagCommand}
	modFn      = modifier{0x3F, flagFn}
)

// modifierNames are the names accepted before the last "+" of a combination; the Linux names
// (super, meta, win; alt) mean command and option.
var modifierNames = map[string]modifier{
	"shift": modShift, "ctrl": modControl, "control": modControl,
	"alt": modOption, "opt": modOption, "option": modOption,
	"cmd": modCommand, "command": modCommand, "super": modCommand, "meta": modCommand, "win": modCommand,
	"fn": modFn,
}

// namedKeys maps key names (lower case) to key codes. "delete" is forward delete, as on Linux;
// the key macOS labels delete is "backspace".
var namedKeys = map[string]uint16{
	"return": 0x24, "enter": 0x24, "tab": 0x30, "space": 0x31, "backspace": 0x33,
	"delete": 0x75, "del": 0x75, "forwarddelete": 0x75, "escape": 0x35, "esc": 0x35,
	"left": 0x7B, "right": 0x7C, "down": 0x7D, "up": 0x7E, "home": 0x73, "end": 0x77,
	"pageup": 0x74, "page_up": 0x74, "pgup": 0x74, "prior": 0x74,
	"pagedown": 0x79, "page_down": 0x79, "pgdn": 0x79, "next": 0x79,
	"help": 0x72, "insert": 0x72, "ins": 0x72, "capslock": 0x39, "caps_lock": 0x39,
	"plus": 0x18, "minus": 0x1B, "comma": 0x2B, "period": 0x2F, "slash": 0x2C, "backslash": 0x2A,
}

// functionKeys are F1 to F20.
var functionKeys = [...]uint16{0x7A, 0x78, 0x63, 0x76, 0x60, 0x61, 0x62, 0x64, 0x65, 0x6D, 0x67, 0x6F,
	0x69, 0x6B, 0x71, 0x6A, 0x40, 0x4F, 0x50, 0x5A}

// charKeys maps the characters of the ANSI layout to key codes.
var charKeys = map[rune]uint16{
	'a': 0x00, 's': 0x01, 'd': 0x02, 'f': 0x03, 'h': 0x04, 'g': 0x05, 'z': 0x06, 'x': 0x07, 'c': 0x08,
	'v': 0x09, 'b': 0x0B, 'q': 0x0C, 'w': 0x0D, 'e': 0x0E, 'r': 0x0F, 'y': 0x10, 't': 0x11, '1': 0x12,
	'2': 0x13, '3': 0x14, '4': 0x15, '6': 0x16, '5': 0x17, '=': 0x18, '9': 0x19, '7': 0x1A, '-': 0x1B,
	'8': 0x1C, '0': 0x1D, ']': 0x1E, 'o': 0x1F, 'u': 0x20, '[': 0x21, 'i': 0x22, 'p': 0x23, 'l': 0x25,
	'j': 0x26, '\'': 0x27, 'k': 0x28, ';': 0x29, '\\': 0x2A, ',': 0x2B, '/': 0x2C, 'n': 0x2D, 'm': 0x2E,
	'.': 0x2F, '`': 0x32, ' ': 0x31,
}

// shiftedChars maps the characters typed with shift to their unshifted key's character.
var shiftedChars = map[rune]rune{
	'!': '1', '@': '2', '#': '3', '$': '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0',
	'_': '-', '+': '=', '{': '[', '}': ']', '|': '\\', ':': ';', '"': '\'', '<': ',', '>': '.', '?': '/', '~': '`',
}

// withShift maps the characters of the keys to what they type with shift.
var withShift = func() map[rune]rune {
	m := map[rune]rune{}
	for s, base := range shiftedChars {
		m[base] = s
	}
	return m
}()

// shifted is what the key of base types with shift.
func shifted(base rune) rune {
	if s, ok := withShift[base]; ok {
		return s
	}
	return unicode.ToUpper(base)
}

// keyCombo is one combination: modifiers held while the key is pressed. text is what the key
// types with shift if held (what apps match shortcuts against), "" for keys that type nothing.
type keyCombo struct {
	mods []modifier
	code uint16
	text string
}

// flags are the combination's modifier flags.
func (c keyCombo) flags() uint64 {
	var f uint64
	for _, m := range c.mods {
		f |= m.flag
	}
	return f
}

// parseKeys parses a key sequence (observer.SplitKeys: "cmd+a", "shift+Tab", "Return",
// "cmd++" for command and plus) into key codes.
func parseKeys(s string) ([]keyCombo, error) {
	chords, err := observer.SplitKeys(s)
	if err != nil {
		return nil, err
	}
	out := make([]keyCombo, 0, len(chords))
	for _, ch := range chords {
		var c keyCombo
		for _, name := range ch.Mods {
			m, ok := modifierNames[strings.ToLower(name)]
			if !ok {
				return nil, fmt.Errorf("unknown modifier %q in %q (use shift, ctrl, alt or option, cmd, fn)", name, s)
			}
			c.mods = append(c.mods, m)
		}
		if err := c.setKey(ch.Key); err != nil {
			return nil, fmt.Errorf("%w in %q", err, s)
		}
		out = append(out, c)
	}
	return out, nil
}

// setKey resolves the key of a combination: one character (an upper-case letter or a shifted
// symbol adds shift), a name, or F1 to F20.
func (c *keyCombo) setKey(name string) error {
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		base := unicode.ToLower(r)
		if s, ok := shiftedChars[r]; ok {
			base = s
		}
		code, ok := charKeys[base]
		if !ok {
			return fmt.Errorf("no key types %q (use type for such text)", name)
		}
		if base != r && !slices.Contains(c.mods, modShift) {
			c.mods = append(c.mods, modShift)
		}
		c.code, c.text = code, string(base)
		if slices.Contains(c.mods, modShift) {
			c.text = string(shifted(base))
		}
		return nil
	}
	l := strings.ToLower(name)
	if code, ok := namedKeys[l]; ok {
		c.code = code
		return nil
	}
	if n, ok := strings.CutPrefix(l, "f"); ok {
		if f, err := strconv.Atoi(n); err == nil && f >= 1 && f <= len(functionKeys) {
			c.code = functionKeys[f-1]
			return nil
		}
	}
	return fmt.Errorf("unknown key %q", name)
}
