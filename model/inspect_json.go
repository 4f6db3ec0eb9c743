package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
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
	b = AppendJSONString(b, e.ID)
	b = appendOptString(b, `,"parent":`, e.Parent)
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(e.Depth), 10)
	b = append(b, `,"role":`...)
	b = AppendJSONString(b, string(e.Role))
	b = appendOptString(b, `,"platform_role":`, e.PlatformRole)
	b = appendOptString(b, `,"subrole":`, e.Subrole)
	b = appendOptString(b, `,"name":`, e.Name)
	b = appendOptString(b, `,"label":`, e.Label)
	b = appendOptString(b, `,"description":`, e.Description)
	if e.Value != nil {
		b = append(b, `,"value":`...)
		b = AppendJSONString(b, *e.Value)
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
			if b, err = AppendJSONFloat(b, f.v); err != nil {
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
				b, first = AppendJSONString(b, name), false
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
			b = AppendJSONString(b, a)
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
	b = appendOptString(b, `,"locator":`, e.Locator)
	return append(b, '}'), nil
}

// appendOptString appends key and s, unless s is empty (omitempty).
func appendOptString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return AppendJSONString(append(b, key...), s)
}
