package main

import (
	"encoding/json"
	"io"
	"os"
)

// isTerminal reports whether w is a character device (a person is reading).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// printJSON writes v as JSON: indented for a person, one line for a program.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	if isTerminal(w) {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}
