package condition

// ParseCompact parses the compact form of a condition (the CLI's) into its canonical form,
// validated. Spaces may separate any two tokens. The grammar, in EBNF:
//
//	condition   = conjunction { "or" conjunction } .
//	conjunction = operand { "and" operand } .          (* and binds tighter than or *)
//	operand     = "(" condition ")" | leaf .
//	leaf        = "text" ( ":" | "=" | "~" ) value [ "gone" ]
//	            | "element" ":" fields [ "gone" ]
//	            | "focused" ":" fields
//	            | ( "window" | "window_gone" | "dialog" ) [ ":" "title" match ]
//	            | "value" ( ":" ( target match | fields | value ) | match )
//	            | "state" ( ":" ( target state | fields | word ) | state ) .
//	fields      = field { "," field } .
//	field       = "role" "=" ( word | string )
//	            | ( "name" | "label" | "description" | "identifier" | "value" | "text" ) match
//	            | "state" state .
//	match       = ( "=" | "~" ) value .
//	state       = ( "=" | "!=" ) word .
//	value       = word | string [ flag ] | regex [ flag ] .
//	target      = "e" digits .
//	string      = '"' { character | '\"' | '\\' } '"' .
//	regex       = "/" { character | "\/" } "/" | "re" string .
//	flag        = "i" | "s" .                             (* right after the closing quote or slash *)
//	word        = wordchar { wordchar } .   (* any character but space, control, " ( ) : , = ~ ! / \ *)
//
// = matches exactly, ~ contains, a regex matches as RE2 (after = or ~ alike); text: and text=
// are exact. A flag sets the case: i ignores it, s respects it (as in CSS attribute
// selectors); without one, contains ignores case and exact and regex respect it. In a string,
// \" and \\ are escapes and any other backslash stands for itself; in a regex, \/ stands for /
// and everything else passes to RE2 as written; re"…" takes a quoted string as a regex, for a
// pattern that holds \/ itself. In a field list, state=NAME asks for a state and
// state!=NAME for its absence; in a state condition, it is the state tested. A value or state
// condition that names no element (value:"42", value~4, state:checked, state!=checked) tests the
// element an action acts on: an expect may say it so, a wait may not.
//
// A refusal is a BAD_REQUEST *model.Error whose message names the 1-based column (in
// characters), whose details give it ("position") and, for a syntax error, what was expected
// there and what was found ("expected", "found"), and whose suggestion shows valid examples.
func ParseCompact(s string) (*Condition, error) {
	p := &parser{sc: scanner{src: []rune(s)}, spans: map[*Condition]*span{}}
	c, err := p.parse()
	if err != nil {
		return nil, err
	}
	if f := c.check("", 1, new(int)); f != nil {
		return nil, p.place(f)
	}
	return c, nil
}

// parser reads the compact form by recursive descent, one token ahead.
type parser struct {
	sc     scanner
	tok    token
	spans  map[*Condition]*span // where each condition was written, to place validation faults
	parens int                  // how many parentheses are open
	kind   Kind                 // the kind of the leaf being read, for the suggestion
	last   *Condition           // the leaf read last, for what may follow it
	// locator says a locator is being read (ParseLocator), for the suggestion.
	locator bool
}

// span is where a condition was written: its first column, the column after it, and the
// column of each field's value by JSON pointer relative to the condition ("/name", "/states/1").
type span struct {
	start, end int
	fields     map[string]int
}

func (p *parser) parse() (*Condition, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	c, err := p.disjunction()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEnd {
		return nil, p.expected(p.follow())
	}
	return c, nil
}

func (p *parser) advance() error {
	t, f := p.sc.scan()
	if f != nil {
		return p.syntaxError(f)
	}
	p.tok = t
	return nil
}

func (p *parser) isWord(w string) bool { return p.tok.kind == tokWord && p.tok.text == w }

func (p *parser) disjunction() (*Condition, error) { return p.list(KindAny, "or", p.conjunction) }

func (p *parser) conjunction() (*Condition, error) { return p.list(KindAll, "and", p.operand) }

// list reads terms joined by keyword into one condition of kind, or the term alone when there is
// one. Parenthesised terms stay terms of their own: (a and b) and c keeps its shape.
func (p *parser) list(kind Kind, keyword string, term func() (*Condition, error)) (*Condition, error) {
	start := p.tok.col
	var terms []*Condition
	for {
		t, err := term()
		if err != nil {
			return nil, err
		}
		terms = append(terms, t)
		if !p.isWord(keyword) {
			break
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	if len(terms) == 1 {
		return terms[0], nil
	}
	c := &Condition{Kind: kind, Of: terms}
	p.spans[c] = &span{start: start, end: start} // a fault of the list points at its start
	return c, nil
}

func (p *parser) operand() (*Condition, error) {
	if p.tok.kind != tokOpen {
		return p.leaf()
	}
	if p.parens == MaxDepth { // bounds the recursion; deeper would exceed MaxDepth anyway
		return nil, p.failAt(p.tok.col, tooDeepWhat, tooDeepHint)
	}
	p.parens++
	if err := p.advance(); err != nil {
		return nil, err
	}
	c, err := p.disjunction()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokClose {
		return nil, p.expected(p.follow())
	}
	p.parens--
	return c, p.advance()
}
