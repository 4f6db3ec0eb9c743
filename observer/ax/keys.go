package ax

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/axbus/axbus/observer"
)

// Key combinations for physical input, resolved to the strokes of keymap.go.

// keyCombo is one combination: modifiers held while the key is pressed. text is what the key
// types with those modifiers on the US layout (what apps match shortcuts against), "" for a key
// that types nothing.
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
		stroke, err := keyStrokeOf(ch.Key)
		if err != nil {
			return nil, fmt.Errorf("%w in %q", err, s)
		}
		c.press(stroke)
		out = append(out, c)
	}
	return out, nil
}

// keyStrokeOf resolves a key: one character (an upper-case letter or a shifted symbol needs
// shift), a name, or F1 to F20.
func keyStrokeOf(name string) (keyStroke, error) {
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		if s, ok := charStroke(r); ok {
			return s, nil
		}
		return keyStroke{}, fmt.Errorf("no key types %q (use type for such text)", name)
	}
	l := strings.ToLower(name)
	if s, ok := namedKeys[l]; ok {
		return s, nil
	}
	if n, ok := strings.CutPrefix(l, "f"); ok {
		if f, err := strconv.Atoi(n); err == nil && f >= 1 && f <= len(functionKeys) {
			return keyStroke{code: functionKeys[f-1]}, nil
		}
	}
	return keyStroke{}, fmt.Errorf("unknown key %q", name)
}

// press makes s the combination's key: shift joins the modifiers when s needs it, and the text
// is what the key types with the shift held.
func (c *keyCombo) press(s keyStroke) {
	if s.shift && !slices.Contains(c.mods, modShift) {
		c.mods = append(c.mods, modShift)
	}
	c.code, c.text = s.code, ""
	if r := strokeChar(keyStroke{s.code, slices.Contains(c.mods, modShift)}); r != 0 {
		c.text = string(r)
	}
}
