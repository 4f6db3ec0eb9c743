package testdaemon

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/axbus/axbus/schemas"
)

// MustMatch fails unless doc matches the named schema: replies keep the schemas true.
func MustMatch(t testing.TB, schema string, doc []byte) {
	t.Helper()
	if err := schemas.Validate(schema, bytes.TrimSpace(doc)); err != nil {
		t.Fatalf("%s: %v\n%s", schema, err, doc)
	}
}

// Decode decodes doc, a JSON document, or fails t.
func Decode[T any](t testing.TB, doc string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("decode: %v\n%s", err, doc)
	}
	return v
}

// OneLine is s when it is exactly one line; it fails t otherwise.
func OneLine(t testing.TB, s string) string {
	t.Helper()
	s = strings.TrimRight(s, "\n")
	if strings.Contains(s, "\n") || s == "" {
		t.Fatalf("want exactly one line, got %q", s)
	}
	return s
}

// FirstJSONLine sends the first line of r that is a JSON object (a CLI's output among its
// banner), or closes the channel when r ends without one.
func FirstJSONLine(r io.Reader) <-chan string {
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "{") {
				line <- sc.Text()
				return
			}
		}
		close(line)
	}()
	return line
}
