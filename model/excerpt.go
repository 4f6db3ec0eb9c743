package model

import (
	"maps"
	"strconv"
	"unicode/utf8"
)

// MaxEcho is how much of a caller's input an error repeats: a 900 KB id comes back as its first
// 200 bytes, marked as cut, not as 900 KB in a header and again in the body.
const MaxEcho = 200

// maxMessage bounds a whole message or suggestion at the edge, whatever built it.
const maxMessage = 1024

// Excerpt is s when it is at most MaxEcho bytes long; otherwise its beginning and its end, cut on
// character boundaries, with a mark between them that says how long it was: "'xxx…' does not
// match pattern" keeps both what was given and what is wrong with it.
func Excerpt(s string) string { return cut(s, MaxEcho) }

// cut is s, or about max bytes of it: its first and last max/2 bytes (on character boundaries)
// around a mark saying it was cut.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, tail := max/2, len(s)-max/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "…[cut: " + strconv.Itoa(len(s)) + " bytes]…" + s[tail:]
}

// excerptArgs caps the string arguments of an error's format: they are what echo input.
func excerptArgs(args []any) []any {
	var out []any
	for i, a := range args {
		var long string
		switch v := a.(type) {
		case string:
			if len(v) <= MaxEcho {
				continue
			}
			long = v
		case []byte:
			if len(v) <= MaxEcho {
				continue
			}
			long = string(v)
		default:
			continue
		}
		if out == nil {
			out = append([]any(nil), args...)
		}
		out[i] = Excerpt(long)
	}
	if out == nil {
		return args
	}
	return out
}

// Bounded is e as it may leave the daemon: its message and suggestion at most maxMessage bytes,
// and its string details at most MaxEcho, each marked where cut. e itself is not changed.
func (e *Error) Bounded() *Error {
	b := *e
	b.Message, b.Suggestion = cut(e.Message, maxMessage), cut(e.Suggestion, maxMessage)
	copied := false
	for k, v := range e.Details {
		if s, ok := v.(string); ok && len(s) > MaxEcho {
			if !copied {
				b.Details, copied = maps.Clone(e.Details), true
			}
			b.Details[k] = Excerpt(s)
		}
	}
	return &b
}
