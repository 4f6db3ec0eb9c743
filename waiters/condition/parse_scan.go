package condition

import (
	"strconv"
	"strings"
	"unicode"
)

// tokenKind is what a token of the compact form is.
type tokenKind int

const (
	tokEnd     tokenKind = iota
	tokWord              // a bare word: a kind, a field, a keyword, a state, a plain value
	tokString            // a quoted string, its escapes resolved
	tokRegex             // a regex: /…/ (\/ resolved) or re"…"
	tokColon             // :
	tokComma             // ,
	tokEq                // =
	tokTilde             // ~
	tokNotEq             // !=
	tokOpen              // (
	tokClose             // )
	tokWithin            // >> (a locator's nesting)
	tokInvalid           // a character that starts no token
)

var punctuation = map[rune]tokenKind{':': tokColon, ',': tokComma, '=': tokEq, '~': tokTilde, '(': tokOpen, ')': tokClose}

// token is one token of the compact form.
type token struct {
	kind tokenKind
	text string // the word, the string or pattern as resolved, the character
	col  int    // 1-based, in characters
	// flag is the case letter after a string or regex: "i" or "s", or "".
	flag string
}

// describe names t for an error message.
func (t token) describe() string {
	const most = 24
	switch t.kind {
	case tokEnd:
		return "the end"
	case tokString, tokRegex:
		if r := []rune(t.text); len(r) > most {
			t.text = string(r[:most]) + "…"
		}
		if t.kind == tokRegex {
			return "/" + t.text + "/"
		}
		return strconv.Quote(t.text)
	}
	return "'" + t.text + "'"
}

// scanner splits the compact form into tokens. It works on characters, so that columns count
// characters as a person does.
type scanner struct {
	src []rune
	pos int
}

// syntaxFault is where the compact form stops making sense and what would have made sense there.
type syntaxFault struct {
	col             int
	expected, found string
}

// scan returns the next token.
func (s *scanner) scan() (token, *syntaxFault) {
	for s.pos < len(s.src) && unicode.IsSpace(s.src[s.pos]) {
		s.pos++
	}
	start := s.pos
	col := start + 1
	if start == len(s.src) {
		return token{kind: tokEnd, col: col}, nil
	}
	r := s.src[start]
	if kind, ok := punctuation[r]; ok {
		s.pos++
		return token{kind: kind, text: string(r), col: col}, nil
	}
	switch {
	case s.nests(start):
		s.pos += 2
		return token{kind: tokWithin, text: ">>", col: col}, nil
	case r == '!' && s.at(start+1) == '=':
		s.pos += 2
		return token{kind: tokNotEq, text: "!=", col: col}, nil
	case r == '"':
		return s.quoted(tokString, col)
	case r == '/':
		return s.regex(col)
	case isWordRune(r):
		for s.pos < len(s.src) && isWordRune(s.src[s.pos]) && !s.nests(s.pos) {
			s.pos++
		}
		word := string(s.src[start:s.pos])
		if word == "re" && s.at(s.pos) == '"' {
			return s.quoted(tokRegex, col)
		}
		return token{kind: tokWord, text: word, col: col}, nil
	}
	s.pos++
	return token{kind: tokInvalid, text: string(r), col: col}, nil
}

// nests reports whether >> (a locator's "within") begins at i: it ends a word, as "a>>b" reads.
func (s *scanner) nests(i int) bool { return s.at(i) == '>' && s.at(i+1) == '>' }

// at returns the character at i, or 0 past the end.
func (s *scanner) at(i int) rune {
	if i < len(s.src) {
		return s.src[i]
	}
	return 0
}

// isWordRune reports whether r may stand in a bare word: anything but spaces, control
// characters, the language's punctuation, quotes, slashes and backslashes.
func isWordRune(r rune) bool {
	return !unicode.IsSpace(r) && !unicode.IsControl(r) && !strings.ContainsRune(`"():,=~!/\`, r)
}

// quoted reads the quoted string whose quote is at s.pos: \" and \\ are escapes, any other
// backslash stands for itself (so "C:\Users" needs none).
func (s *scanner) quoted(kind tokenKind, col int) (token, *syntaxFault) {
	open := s.pos + 1
	var b strings.Builder
	for i := s.pos + 1; i < len(s.src); i++ {
		switch r := s.src[i]; {
		case r == '"':
			s.pos = i + 1
			return s.flagged(token{kind: kind, text: b.String(), col: col}), nil
		case r == '\\' && (s.at(i+1) == '"' || s.at(i+1) == '\\'):
			b.WriteRune(s.src[i+1])
			i++
		default:
			b.WriteRune(r)
		}
	}
	s.pos = len(s.src)
	return token{}, &syntaxFault{col: len(s.src) + 1, found: "the end",
		expected: "'\"' to close the string opened at column " + strconv.Itoa(open)}
}

// regex reads a regex literal at s.pos. Its text passes to RE2 as it is, but for \/, which
// stands for / so that a slash does not end the literal.
func (s *scanner) regex(col int) (token, *syntaxFault) {
	var b strings.Builder
	for i := s.pos + 1; i < len(s.src); i++ {
		switch r := s.src[i]; {
		case r == '/':
			s.pos = i + 1
			return s.flagged(token{kind: tokRegex, text: b.String(), col: col}), nil
		case r == '\\' && s.at(i+1) == '/':
			b.WriteByte('/')
			i++
		case r == '\\' && i+1 < len(s.src):
			b.WriteRune(r)
			b.WriteRune(s.src[i+1])
			i++
		default:
			b.WriteRune(r)
		}
	}
	s.pos = len(s.src)
	return token{}, &syntaxFault{col: len(s.src) + 1, found: "the end",
		expected: "'/' to close the regex opened at column " + strconv.Itoa(col)}
}

// flagged reads the case letter that may follow a string or regex: i or s, not followed by
// another letter of a word.
func (s *scanner) flagged(t token) token {
	if r := s.at(s.pos); (r == 'i' || r == 's') && !isWordRune(s.at(s.pos+1)) {
		t.flag = string(r)
		s.pos++
	}
	return t
}
