//go:build linux

package headless

import (
	"strings"
	"testing"
)

// FuzzParseExport: whatever a value holds (quotes, backslashes, spaces), session.env's line for
// it reads back as the value.
func FuzzParseExport(f *testing.F) {
	for _, v := range []string{"", ":99", "unix:path=/run/a b", "it's", `'\''`, `a\`, "'"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.ContainsAny(v, "\n\r") {
			return // session.env holds one variable a line
		}
		line := exportLine("K", v)
		k, got, ok := parseExport(line)
		if !ok || k != "K" || got != v {
			t.Fatalf("%q read back as %q, %q, %v", line, k, got, ok)
		}
	})
}
