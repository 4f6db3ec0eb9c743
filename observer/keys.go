package observer

import (
	"fmt"
	"slices"
	"strings"
)

// MaxKeySequence bounds the length of a key sequence.
const MaxKeySequence = 256

// KeyChord is one key combination as written: the modifiers' names and the key's, in order.
// Each platform resolves the names to its own codes.
type KeyChord struct {
	Mods []string
	Key  string
}

// SplitKeys splits a key sequence: combinations separated by spaces, each modifiers and a key
// joined by "+" ("ctrl+a", "shift+Tab", "Return", "ctrl+shift+s", "ctrl++" for ctrl and plus).
func SplitKeys(s string) ([]KeyChord, error) {
	if len(s) > MaxKeySequence {
		return nil, fmt.Errorf("key sequence longer than %d characters", MaxKeySequence)
	}
	var out []KeyChord
	for _, combo := range strings.Fields(s) {
		var parts []string
		switch {
		case combo == "+":
			parts = []string{"+"}
		case strings.HasSuffix(combo, "++"):
			parts = append(strings.Split(strings.TrimSuffix(combo, "++"), "+"), "+")
		default:
			parts = strings.Split(combo, "+")
		}
		if slices.Contains(parts, "") {
			return nil, fmt.Errorf("empty key in %q", combo)
		}
		out = append(out, KeyChord{Mods: parts[:len(parts)-1], Key: parts[len(parts)-1]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no keys given")
	}
	return out, nil
}
