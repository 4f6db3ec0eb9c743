package condition

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// MarshalJSON writes the canonical JSON form: kind, then the fields in a fixed order, each only
// when given; "on" only when false.
func (c Condition) MarshalJSON() ([]byte, error) {
	type fields Condition // the struct tags without this method
	var on *bool
	if c.Off {
		on = new(bool)
	}
	return json.Marshal(struct {
		fields
		On *bool `json:"on,omitempty"`
	}{fields(c), on})
}

// UnmarshalJSON decodes the canonical JSON form and validates it (see Validate). Unknown fields,
// fields the kind does not take, nulls and wrong types are refused with the JSON pointer of the
// problem, relative to the condition.
func (c *Condition) UnmarshalJSON(data []byte) error {
	var d Condition
	if f := d.decode(data, "", 1); f != nil {
		return f.err()
	}
	if err := d.Validate(); err != nil {
		return err
	}
	*c = d
	return nil
}

// decode reads the condition at path and depth from data, without validating more than the
// JSON shape: each field is checked as the kind takes it, by the names the JSON gives, so that a
// field given as its zero value ("on": true, "gone": false) is refused where it does not apply.
func (c *Condition) decode(data []byte, path string, depth int) *fault {
	if depth > MaxDepth {
		return tooDeep(c, path) // before reading further: bounds the recursion on hostile input
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil || obj == nil {
		return &fault{node: c, path: path, what: "a condition is a JSON object", suggestion: schemaHint}
	}
	kind, ok := obj["kind"]
	if !ok {
		return &fault{node: c, path: path, field: "/kind", what: "kind is missing", suggestion: kindHint()}
	}
	if f := decodeString(kind, (*string)(&c.Kind)); f != nil {
		f.node, f.path, f.field = c, path, "/kind"
		return f
	}
	allowed, known := kindFields[c.Kind]
	if !known {
		return &fault{node: c, path: path, field: "/kind", what: fmt.Sprintf("unknown kind %q", c.Kind), suggestion: kindHint()}
	}
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		if name == "kind" {
			continue
		}
		field, ok := fieldNamed(name)
		switch {
		case !ok:
			return &fault{node: c, path: path, field: "/" + name, what: fmt.Sprintf("unknown field %q", name), suggestion: schemaHint}
		case field&allowed == 0:
			f := notForKind(name, c.Kind)
			f.node, f.path = c, path
			return f
		}
		if f := c.decodeField(field, obj[name], path, depth); f != nil {
			if f.node == nil { // a fault of this field, not of a term of the list
				f.node, f.path, f.field = c, path, "/"+name+f.field
			}
			return f
		}
	}
	return nil
}

// decodeField reads one field of c. The fault's field is relative to the field, unless the
// fault lies in a term of the list (of), which places it itself.
func (c *Condition) decodeField(field fieldSet, raw json.RawMessage, path string, depth int) *fault {
	switch field {
	case fieldRole:
		return decodeNonEmpty(raw, &c.Role)
	case fieldTarget:
		return decodeNonEmpty(raw, &c.Target)
	case fieldState:
		return decodeNonEmpty(raw, &c.State)
	case fieldStates:
		return decodeStrings(raw, &c.States)
	case fieldNotStates:
		return decodeStrings(raw, &c.NotStates)
	case fieldGone:
		return decodeBool(raw, &c.Gone)
	case fieldOn:
		var on bool
		f := decodeBool(raw, &on)
		c.Off = !on
		return f
	case fieldOf:
		return c.decodeTerms(raw, path, depth)
	}
	for _, m := range c.matchFields() {
		if m.field == field {
			var f *fault
			*m.at, f = decodeMatch(raw)
			return f
		}
	}
	panic("waiters: field without a decoder: " + field.first())
}

// decodeTerms reads the list of an all or any.
func (c *Condition) decodeTerms(raw json.RawMessage, path string, depth int) *fault {
	var terms []json.RawMessage
	if isNull(raw) || json.Unmarshal(raw, &terms) != nil {
		return &fault{what: "of is a list of conditions", suggestion: schemaHint}
	}
	c.Of = make([]*Condition, len(terms))
	for i, t := range terms {
		c.Of[i] = &Condition{}
		if f := c.Of[i].decode(t, path+"/of/"+strconv.Itoa(i), depth+1); f != nil {
			return f
		}
	}
	return nil
}

// UnmarshalJSON reads a bare string (an exact match) or an object {op, value, case}, and
// validates it.
func (m *StringMatch) UnmarshalJSON(data []byte) error {
	d, f := decodeMatch(data)
	if f == nil {
		f = d.check()
	}
	if f != nil {
		return f.err()
	}
	*m = *d
	return nil
}

// MarshalJSON writes a bare string for an exact match with the default case, else an object
// whose case is left out when it is the op's default.
func (m StringMatch) MarshalJSON() ([]byte, error) {
	if m.Op == OpExact && !m.insensitive() {
		return json.Marshal(m.Value)
	}
	type fields StringMatch // the struct tags without this method
	if m.Case == defaultCase(m.Op) {
		m.Case = ""
	}
	return json.Marshal(fields(m))
}

// decodeMatch reads a match's JSON shape; the fault's field is relative to the match.
func decodeMatch(raw json.RawMessage) (*StringMatch, *fault) {
	var s string
	if !isNull(raw) && json.Unmarshal(raw, &s) == nil {
		return Exact(s), nil
	}
	var obj map[string]json.RawMessage
	if isNull(raw) || json.Unmarshal(raw, &obj) != nil {
		return nil, &fault{what: "a match is a string or an object", suggestion: matchHint}
	}
	m := &StringMatch{}
	targets := map[string]*string{"op": (*string)(&m.Op), "value": &m.Value, "case": (*string)(&m.Case)}
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		target, ok := targets[name]
		if !ok {
			return nil, &fault{field: "/" + name, what: fmt.Sprintf("unknown field %q", name), suggestion: matchHint}
		}
		if f := decodeString(obj[name], target); f != nil {
			f.field = "/" + name
			return nil, f
		}
	}
	for _, required := range []string{"op", "value"} {
		if _, ok := obj[required]; !ok {
			return nil, &fault{field: "/" + required, what: required + " is missing", suggestion: matchHint}
		}
	}
	return m, nil
}

func decodeString(raw json.RawMessage, into *string) *fault {
	if isNull(raw) || json.Unmarshal(raw, into) != nil {
		return &fault{what: "must be a string", suggestion: schemaHint}
	}
	return nil
}

// decodeNonEmpty reads a string that must not be empty when given: an empty role, target or
// state would otherwise read as not given.
func decodeNonEmpty(raw json.RawMessage, into *string) *fault {
	if f := decodeString(raw, into); f != nil {
		return f
	}
	if *into == "" {
		return &fault{what: "must not be empty", suggestion: "Leave the field out instead."}
	}
	return nil
}

func decodeStrings(raw json.RawMessage, into *[]string) *fault {
	var list []json.RawMessage
	if isNull(raw) || json.Unmarshal(raw, &list) != nil {
		return &fault{what: "must be a list of state names", suggestion: stateHint()}
	}
	*into = make([]string, len(list))
	for i, item := range list {
		if f := decodeString(item, &(*into)[i]); f != nil {
			f.field = "/" + strconv.Itoa(i)
			return f
		}
	}
	return nil
}

func decodeBool(raw json.RawMessage, into *bool) *fault {
	if isNull(raw) || json.Unmarshal(raw, into) != nil {
		return &fault{what: "must be true or false", suggestion: schemaHint}
	}
	return nil
}

// isNull reports whether raw is JSON null, which encoding/json would take for "not given".
func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }
