package api

import (
	"crypto/sha256"
	hexenc "encoding/hex"
	"maps"
	"unicode/utf8"

	"github.com/axbus/axbus/model"
)

// MaxEventText bounds each text an event carries (an element's name and value, a window's
// title, a string of its detail): past it the envelope keeps the first MaxEventText bytes (on a
// character boundary) and a Cut saying how long the whole was and its digest. An event stays a
// few KiB whatever an app holds, so that no one filling a field can flush the history; the whole
// value is read from the app (inspect, read).
const MaxEventText = 4 << 10

// Cut says that a text of an event was cut to MaxEventText bytes: which (element.value,
// element.name, window.title, detail.<key>), its whole length in bytes and the SHA-256 of the
// whole, in hex, which tells a client whether the value it reads from the app is the same.
type Cut struct {
	Field  string `json:"field"`
	Length int    `json:"length"`
	SHA256 string `json:"sha256"`
}

// Bounded is e with every text longer than MaxEventText cut, and what was cut; e and what it
// points to are not changed (an event is shared with the observer's other subscribers).
func Bounded(e model.Event) (model.Event, []Cut) {
	var cuts []Cut
	cutText := func(field string, s *string) {
		if len(*s) > MaxEventText {
			sum := sha256.Sum256([]byte(*s))
			cuts = append(cuts, Cut{Field: field, Length: len(*s), SHA256: hexenc.EncodeToString(sum[:])})
			*s = prefix(*s, MaxEventText)
		}
	}
	if el := e.Element; el != nil && (len(el.Name) > MaxEventText || len(el.Value) > MaxEventText) {
		c := *el
		cutText("element.name", &c.Name)
		cutText("element.value", &c.Value)
		e.Element = &c
	}
	if w := e.Window; w != nil && len(w.Title) > MaxEventText {
		c := *w
		cutText("window.title", &c.Title)
		e.Window = &c
	}
	var detail map[string]any // the copy, once a text of the detail is cut
	for k, v := range e.Detail {
		if s, ok := v.(string); ok && len(s) > MaxEventText {
			if detail == nil {
				detail = maps.Clone(e.Detail)
			}
			cutText("detail."+k, &s)
			detail[k] = s
		}
	}
	if detail != nil {
		e.Detail = detail
	}
	return e, cuts
}

// prefix is at most n bytes of s, cut on a character boundary.
func prefix(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
