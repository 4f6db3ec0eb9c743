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

// rawText is printed as it is, not as JSON.
type rawText string

// printJSON writes v as JSON: indented for a person, one line for a program.
func printJSON(w io.Writer, v any) error {
	if t, ok := v.(rawText); ok {
		_, err := io.WriteString(w, string(t)+"\n")
		return err
	}
	enc := json.NewEncoder(w)
	if isTerminal(w) {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}
