package ax

// The keyboard as macOS virtual key codes (HIToolbox/Events.h, kVK_*): the modifiers, the named
// keys, and the keys that type a character on the US (ANSI) layout, with the shift each character
// needs. A key code names a physical key, whatever the keyboard layout prints on it; the key
// events that type a character also carry the character itself (CGEventKeyboardSetUnicodeString),
// which is what most apps read, so text and shortcuts come out right on other layouts too.

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

// keyStroke is one press of a key: its key code and whether shift must be held with it.
type keyStroke struct {
	code  uint16
	shift bool
}

// The keys without a character of their own.
const (
	keyReturn = 0x24 // kVK_Return
	keyTab    = 0x30 // kVK_Tab
	// keyUnicodeCarrier is the key of an event that types a character no US key types: the
	// event's Unicode string is what it types. It is kVK_ANSI_A, as no key code is neutral; an app
	// that goes by the key code rather than the string types "a" for such a character.
	keyUnicodeCarrier = 0x00
)

// usKey is a key of the US layout that types a character: plain alone, shifted with shift.
type usKey struct {
	code           uint16
	plain, shifted rune
}

// usLayout lists the character keys of the US layout (kVK_ANSI_*, kVK_Space).
var usLayout = [...]usKey{
	{0x00, 'a', 'A'}, {0x01, 's', 'S'}, {0x02, 'd', 'D'}, {0x03, 'f', 'F'}, {0x04, 'h', 'H'},
	{0x05, 'g', 'G'}, {0x06, 'z', 'Z'}, {0x07, 'x', 'X'}, {0x08, 'c', 'C'}, {0x09, 'v', 'V'},
	{0x0B, 'b', 'B'}, {0x0C, 'q', 'Q'}, {0x0D, 'w', 'W'}, {0x0E, 'e', 'E'}, {0x0F, 'r', 'R'},
	{0x10, 'y', 'Y'}, {0x11, 't', 'T'}, {0x12, '1', '!'}, {0x13, '2', '@'}, {0x14, '3', '#'},
	{0x15, '4', '$'}, {0x16, '6', '^'}, {0x17, '5', '%'}, {0x18, '=', '+'}, {0x19, '9', '('},
	{0x1A, '7', '&'}, {0x1B, '-', '_'}, {0x1C, '8', '*'}, {0x1D, '0', ')'}, {0x1E, ']', '}'},
	{0x1F, 'o', 'O'}, {0x20, 'u', 'U'}, {0x21, '[', '{'}, {0x22, 'i', 'I'}, {0x23, 'p', 'P'},
	{0x25, 'l', 'L'}, {0x26, 'j', 'J'}, {0x27, '\'', '"'}, {0x28, 'k', 'K'}, {0x29, ';', ':'},
	{0x2A, '\\', '|'}, {0x2B, ',', '<'}, {0x2C, '/', '?'}, {0x2D, 'n', 'N'}, {0x2E, 'm', 'M'},
	{0x2F, '.', '>'}, {0x31, ' ', ' '}, {0x32, '`', '~'},
}

// charStrokes and strokeChars are usLayout both ways: the stroke that types a character, and
// the character a stroke types.
var charStrokes, strokeChars = func() (map[rune]keyStroke, map[keyStroke]rune) {
	byChar, byStroke := map[rune]keyStroke{}, map[keyStroke]rune{}
	for _, k := range usLayout {
		plain, shifted := keyStroke{k.code, false}, keyStroke{k.code, true}
		byStroke[plain], byStroke[shifted] = k.plain, k.shifted
		byChar[k.plain] = plain
		if _, ok := byChar[k.shifted]; !ok { // space types space with shift too: no shift needed
			byChar[k.shifted] = shifted
		}
	}
	return byChar, byStroke
}()

// charStroke is the stroke that types r on the US layout; false when no key does (a character
// outside ASCII, a control character).
func charStroke(r rune) (keyStroke, bool) {
	s, ok := charStrokes[r]
	return s, ok
}

// strokeChar is the character s types on the US layout; 0 for a key that types none.
func strokeChar(s keyStroke) rune { return strokeChars[s] }

// namedKeys maps key names (lower case) to strokes. "delete" is forward delete, as on Linux; the
// key macOS labels delete is "backspace". "plus" is the = key with shift.
var namedKeys = map[string]keyStroke{
	"return": {code: keyReturn}, "enter": {code: keyReturn}, "tab": {code: keyTab}, "space": {code: 0x31},
	"backspace": {code: 0x33}, "delete": {code: 0x75}, "del": {code: 0x75}, "forwarddelete": {code: 0x75},
	"escape": {code: 0x35}, "esc": {code: 0x35},
	"left": {code: 0x7B}, "right": {code: 0x7C}, "down": {code: 0x7D}, "up": {code: 0x7E},
	"home": {code: 0x73}, "end": {code: 0x77},
	"pageup": {code: 0x74}, "page_up": {code: 0x74}, "pgup": {code: 0x74}, "prior": {code: 0x74},
	"pagedown": {code: 0x79}, "page_down": {code: 0x79}, "pgdn": {code: 0x79}, "next": {code: 0x79},
	"help": {code: 0x72}, "insert": {code: 0x72}, "ins": {code: 0x72}, "capslock": {code: 0x39}, "caps_lock": {code: 0x39},
	"plus": {code: 0x18, shift: true}, "minus": {code: 0x1B}, "comma": {code: 0x2B}, "period": {code: 0x2F},
	"slash": {code: 0x2C}, "backslash": {code: 0x2A},
}

// functionKeys are F1 to F20.
var functionKeys = [...]uint16{0x7A, 0x78, 0x63, 0x76, 0x60, 0x61, 0x62, 0x64, 0x65, 0x6D, 0x67, 0x6F,
	0x69, 0x6B, 0x71, 0x6A, 0x40, 0x4F, 0x50, 0x5A}
