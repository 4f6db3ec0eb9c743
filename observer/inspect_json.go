package observer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends insp as encoding/json writes it, byte for byte (FuzzInspectionJSON holds
// them equal), several times faster: a wait's reply is mostly its listing, and encoding it by
// reflection took a third of the time from a change to the reply.
func (insp *Inspection) AppendJSON(b []byte) ([]byte, error) {
	head := *insp
	head.Elements = nil
	h, err := json.Marshal(&head)
	if err != nil {
		return nil, err
	}
	if insp.Elements == nil {
		return append(b, h...), nil
	}
	const tail = `"elements":null}` // the last field
	if !bytes.HasSuffix(h, []byte(tail)) {
		return nil, fmt.Errorf("inspection JSON ends with %q, not the elements", h[max(0, len(h)-len(tail)):])
	}
	b = slices.Grow(b, len(h)+256*len(insp.Elements)) // a listed element takes 150-250 bytes
	b = append(b, h[:len(h)-len(tail)]...)
	b = append(b, `"elements":[`...)
	for i := range insp.Elements {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = insp.Elements[i].appendJSON(b); err != nil {
			return nil, err
		}
	}
	return append(b, "]}"...), nil
}

// appendJSON appends e as encoding/json writes it, by its field tags.
func (e *Element) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, e.ID)
	b = appendOptString(b, `,"parent":`, e.Parent)
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(e.Depth), 10)
	b = append(b, `,"role":`...)
	b = appendJSONString(b, string(e.Role))
	b = appendOptString(b, `,"platform_role":`, e.PlatformRole)
	b = appendOptString(b, `,"subrole":`, e.Subrole)
	b = appendOptString(b, `,"name":`, e.Name)
	b = appendOptString(b, `,"label":`, e.Label)
	b = appendOptString(b, `,"description":`, e.Description)
	if e.Value != nil {
		b = append(b, `,"value":`...)
		b = appendJSONString(b, *e.Value)
	}
	b = appendOptString(b, `,"text":`, e.Text)
	b = appendOptString(b, `,"identifier":`, e.Identifier)
	if r := e.Bounds; r != nil {
		var err error
		for i, f := range [4]struct {
			key string
			v   float64
		}{{`,"bounds":{"x":`, r.X}, {`,"y":`, r.Y}, {`,"w":`, r.W}, {`,"h":`, r.H}} {
			b = append(b, f.key...)
			if b, err = appendJSONFloat(b, f.v); err != nil {
				return nil, fmt.Errorf("element %s bounds[%d]: %w", e.ID, i, err)
			}
		}
		b = append(b, '}')
	}
	if e.States != 0 {
		b = append(b, `,"states":[`...)
		first := true
		for i, name := range stateNames {
			if e.States&(1<<i) != 0 {
				if !first {
					b = append(b, ',')
				}
				b, first = appendJSONString(b, name), false
			}
		}
		b = append(b, ']')
	}
	if len(e.Actions) > 0 {
		b = append(b, `,"actions":[`...)
		for i, a := range e.Actions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, a)
		}
		b = append(b, ']')
	}
	if e.Secure {
		b = append(b, `,"secure":true`...)
	}
	if e.Children != 0 {
		b = append(b, `,"children":`...)
		b = strconv.AppendInt(b, int64(e.Children), 10)
	}
	return append(b, '}'), nil
}

// appendOptString appends key and s, unless s is empty (omitempty).
func appendOptString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendJSONString(append(b, key...), s)
}

// appendJSONFloat writes f as encoding/json does: like ES6, with 'e' only for very small or
// large magnitudes; NaN and infinities are not JSON.
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-09 -> e-9
		b = b[:n-1]
	}
	return b, nil
}

// appendJSONString writes s quoted as encoding/json does: HTML-safe (<, > and & escaped),
// invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
