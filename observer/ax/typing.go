package ax

// textCombos are the key presses that type text, one character each. A character a key of the
// US layout types is sent with that key's code (and shift where the layout needs it): apps that
// read the key code rather than the event's string type it right. Every character's event also
// carries the character (CGEventKeyboardSetUnicodeString), which is what most apps read, so text
// comes out right on other layouts too and characters no key types are typed at all. A newline
// ("\n", "\r" or "\r\n") is the Return key, a tab the Tab key.
func textCombos(text string) []keyCombo {
	out := make([]keyCombo, 0, len(text))
	prev := rune(0)
	for _, r := range text {
		switch {
		case r == '\n' && prev == '\r': // "\r\n" is one line break
		case r == '\n' || r == '\r':
			out = append(out, keyCombo{code: keyReturn})
		case r == '\t':
			out = append(out, keyCombo{code: keyTab})
		default:
			var c keyCombo
			if s, ok := charStroke(r); ok {
				c.press(s)
			} else {
				c.code = keyUnicodeCarrier
			}
			c.text = string(r)
			out = append(out, c)
		}
		prev = r
	}
	return out
}
