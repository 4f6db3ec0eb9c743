package condition

import (
	"slices"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"
)

// leaf reads one leaf condition and checks its fields.
func (p *parser) leaf() (*Condition, error) {
	t := p.tok
	p.kind = ""
	if t.kind != tokWord || !isLeafKind(Kind(t.text)) {
		return nil, p.expected("a condition: 'text', 'element', 'focused', 'window', 'window_gone', 'dialog', 'value', 'state' or '('")
	}
	c := &Condition{Kind: Kind(t.text)}
	sp := &span{start: t.col, fields: map[string]int{}}
	p.spans[c], p.kind = sp, c.Kind
	if err := p.advance(); err != nil {
		return nil, err
	}
	if err := p.leafBody(c, sp); err != nil {
		return nil, err
	}
	if (c.Kind == KindText || c.Kind == KindElement) && p.isWord("gone") {
		c.Gone = true
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	sp.end, p.last = p.tok.col, c
	if f := c.checkNode(); f != nil { // here, so that the leftmost problem is the one reported
		f.node = c
		return nil, p.place(f)
	}
	return c, nil
}

func isLeafKind(k Kind) bool {
	_, known := kindFields[k]
	return known && k != KindAll && k != KindAny
}

func (p *parser) leafBody(c *Condition, sp *span) error {
	switch c.Kind {
	case KindText:
		return p.text(c, sp)
	case KindWindow, KindWindowGone, KindDialog:
		if p.tok.kind != tokColon {
			return nil
		}
		if err := p.advance(); err != nil {
			return err
		}
		return p.fields(c, sp)
	}
	if c.Kind == KindValue || c.Kind == KindState {
		return p.ofElement(c, sp)
	}
	if p.tok.kind != tokColon {
		return p.expected("':' after " + string(c.Kind))
	}
	if err := p.advance(); err != nil {
		return err
	}
	return p.fields(c, sp)
}

// ofElement reads what follows value or state: an element id and what it asks of it
// (state:e7=checked), element fields (state:role=checkbox,state=checked), or, naming no element,
// what it asks of the element an action's expect acts on: value:"42", value~4, state:checked,
// state!=checked (a wait refuses these).
func (p *parser) ofElement(c *Condition, sp *span) error {
	switch t := p.tok; {
	case c.Kind == KindValue && (t.kind == tokEq || t.kind == tokTilde):
		m, col, err := p.match("value")
		c.Value, sp.fields["/value"] = m, col
		return err
	case c.Kind == KindState && (t.kind == tokEq || t.kind == tokNotEq):
		state, off, col, err := p.state("state")
		c.State, c.Off, sp.fields["/state"] = state, off, col
		return err
	case t.kind != tokColon:
		ops := "':', '=' or '~'"
		if c.Kind == KindState {
			ops = "':', '=' or '!='"
		}
		return p.expected(ops + " after " + string(c.Kind))
	}
	if err := p.advance(); err != nil {
		return err
	}
	words := fieldWords(c.Kind)
	switch t := p.tok; {
	case t.kind == tokWord && len(t.text) > 1 && t.text[0] == 'e' && t.text[1] >= '0' && t.text[1] <= '9':
		return p.target(c, sp)
	case t.kind == tokWord && slices.Contains(words, t.text):
		return p.fields(c, sp)
	case t.kind == tokWord && p.peekOperator(): // a field misspelt, not a value or state
	case c.Kind == KindValue && (t.kind == tokWord || t.kind == tokString || t.kind == tokRegex):
		m, col, err := p.value(OpExact)
		c.Value, sp.fields["/value"] = m, col
		return err
	case c.Kind == KindState && t.kind == tokWord:
		c.State, sp.fields["/state"] = t.text, t.col
		return p.advance()
	}
	what := "a value"
	if c.Kind == KindState {
		what = "a state like checked"
	}
	return p.expected("an element id like e12, " + what + " or a field: " + orList(singleQuoted(words)))
}

// peekOperator reports whether the token after this one is '=', '~' or '!=': this one is a
// field's name.
func (p *parser) peekOperator() bool {
	sc := p.sc
	next, f := sc.scan()
	return f == nil && (next.kind == tokEq || next.kind == tokTilde || next.kind == tokNotEq)
}

// text reads the match of a text condition: text:"…" and text="…" are exact, text~"…" contains.
func (p *parser) text(c *Condition, sp *span) error {
	op := OpExact
	switch p.tok.kind {
	case tokColon, tokEq:
	case tokTilde:
		op = OpContains
	default:
		return p.expected("':', '=' or '~' after text")
	}
	if err := p.advance(); err != nil {
		return err
	}
	m, col, err := p.value(op)
	c.Text, sp.fields["/text"] = m, col
	return err
}

// target reads eN and what a value or state condition asks of it.
func (p *parser) target(c *Condition, sp *span) error {
	c.Target, sp.fields["/target"] = p.tok.text, p.tok.col
	if err := p.advance(); err != nil {
		return err
	}
	if c.Kind == KindValue {
		m, col, err := p.match("the element id")
		c.Value, sp.fields["/value"] = m, col
		return err
	}
	state, off, col, err := p.state("the element id")
	c.State, c.Off, sp.fields["/state"] = state, off, col
	return err
}

// fieldWords lists the fields of the compact form a kind takes.
func fieldWords(k Kind) []string {
	if kindFields[k]&fieldTitle != 0 {
		return []string{"title"}
	}
	return []string{"role", "name", "label", "description", "identifier", "value", "text", "state"}
}

func (p *parser) fields(c *Condition, sp *span) error {
	words := fieldWords(c.Kind)
	for {
		name := p.tok
		if name.kind != tokWord || !slices.Contains(words, name.text) {
			return p.expected("a field: " + orList(singleQuoted(words)))
		}
		if err := p.advance(); err != nil {
			return err
		}
		if err := p.field(c, sp, name); err != nil {
			return err
		}
		if p.tok.kind != tokComma {
			return nil
		}
		if err := p.advance(); err != nil {
			return err
		}
	}
}

// field reads what follows a field's name.
func (p *parser) field(c *Condition, sp *span, name token) error {
	switch name.text {
	case "role":
		return p.role(c, sp, name)
	case "state":
		state, off, col, err := p.state("state")
		switch {
		case err != nil:
			return err
		case c.Kind == KindState && c.State != "":
			return p.failAt(name.col, "a state condition tests one state",
				"Test several states with element:...,state=checked,state!=busy.")
		case c.Kind == KindState:
			c.State, c.Off, sp.fields["/state"] = state, off, col
		case off:
			sp.fields["/not_states/"+strconv.Itoa(len(c.NotStates))] = col
			c.NotStates = append(c.NotStates, state)
		default:
			sp.fields["/states/"+strconv.Itoa(len(c.States))] = col
			c.States = append(c.States, state)
		}
		return nil
	}
	for _, f := range c.matchFields() {
		if f.name != name.text {
			continue
		}
		if *f.at != nil {
			return p.twice(name)
		}
		m, col, err := p.match(name.text)
		*f.at, sp.fields["/"+name.text] = m, col
		return err
	}
	panic("waiters: compact field without a reader: " + name.text)
}

func (p *parser) role(c *Condition, sp *span, name token) error {
	if c.Role != "" {
		return p.twice(name)
	}
	if p.tok.kind != tokEq {
		return p.expected("'=' after role")
	}
	if err := p.advance(); err != nil {
		return err
	}
	if v := p.tok; v.kind != tokWord && (v.kind != tokString || v.flag != "" || v.text == "") {
		return p.expected("a role: a word or a quoted string, like button or \"push button\"")
	}
	c.Role, sp.fields["/role"] = p.tok.text, p.tok.col
	return p.advance()
}

// match reads =value or ~value after what.
func (p *parser) match(after string) (*StringMatch, int, error) {
	op := OpExact
	switch p.tok.kind {
	case tokEq:
	case tokTilde:
		op = OpContains
	default:
		return nil, 0, p.expected("'=' or '~' after " + after)
	}
	if err := p.advance(); err != nil {
		return nil, 0, err
	}
	return p.value(op)
}

// flagCases are the cases the flags after a string or regex set.
var flagCases = map[string]Case{"i": CaseInsensitive, "s": CaseSensitive}

// value reads a value compared by op, or a regex, and returns it with its column.
func (p *parser) value(op Op) (*StringMatch, int, error) {
	v := p.tok
	switch v.kind {
	case tokRegex:
		op = OpRegex
	case tokWord, tokString:
	default:
		return nil, 0, p.expected("a value: a word, a quoted string or a /regex/")
	}
	return &StringMatch{Op: op, Value: v.text, Case: flagCases[v.flag]}, v.col, p.advance()
}

// state reads =NAME or !=NAME after what.
func (p *parser) state(after string) (name string, off bool, col int, err error) {
	op := p.tok
	if op.kind != tokEq && op.kind != tokNotEq {
		return "", false, 0, p.expected("'=' or '!=' after " + after)
	}
	if err := p.advance(); err != nil {
		return "", false, 0, err
	}
	v := p.tok
	if v.kind != tokWord {
		return "", false, 0, p.expected("a state: " + strings.Join(model.StateNames(), ", "))
	}
	return v.text, op.kind == tokNotEq, v.col, p.advance()
}
