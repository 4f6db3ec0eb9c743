package condition

import (
	"bytes"
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Op is how a StringMatch compares.
type Op string

// The ops of a StringMatch.
const (
	OpExact    Op = "exact"    // the whole string, its surrounding whitespace ignored on both sides
	OpContains Op = "contains" // a substring
	OpRegex    Op = "regex"    // an RE2 regular expression, anchored only where it says so (^, $)
)

// Case says whether letter case matters to a StringMatch. The empty Case is the op's default:
// contains ignores case (people search that way), exact and regex respect it (an exact label is
// exact; a regex says (?i) when it means to).
type Case string

// The cases of a StringMatch.
const (
	CaseSensitive   Case = "sensitive"
	CaseInsensitive Case = "insensitive"
)

// StringMatch matches one string of an element or window: a name, a value, a title. JSON writes
// an exact match with the default case as a bare string.
//
// The element's string is trimmed of surrounding whitespace before every comparison, so a label
// padded by its toolkit still matches exactly and "^Saved$" still matches "Saved\n". Ignoring case
// compares Unicode simple case mappings (each character upper-cased then lower-cased, so Σ, σ and
// ς agree); a regex ignores case as RE2's (?i) does.
type StringMatch struct {
	Op    Op     `json:"op"`
	Value string `json:"value"`
	Case  Case   `json:"case,omitempty"`

	prepared *preparedMatch // set by Validate
}

// Exact matches the whole string, with the default (sensitive) case.
func Exact(s string) *StringMatch { return &StringMatch{Op: OpExact, Value: s} }

// Contains matches a substring, with the default (insensitive) case.
func Contains(s string) *StringMatch { return &StringMatch{Op: OpContains, Value: s} }

// Regex matches an RE2 regular expression, with the default (sensitive) case.
func Regex(pattern string) *StringMatch { return &StringMatch{Op: OpRegex, Value: pattern} }

// defaultCase is the case an op uses when the match says none.
func defaultCase(op Op) Case {
	if op == OpContains {
		return CaseInsensitive
	}
	return CaseSensitive
}

func (m *StringMatch) insensitive() bool {
	if m.Case == "" {
		return defaultCase(m.Op) == CaseInsensitive
	}
	return m.Case == CaseInsensitive
}

// preparedMatch is a match made ready to compare against many strings.
type preparedMatch struct {
	want  string         // exact and contains: the wanted string as compared (trimmed, case-folded)
	re    *regexp.Regexp // regex
	insts int            // regex: its program's instructions, the steps of one byte (cost.go)
}

// prepare compiles m. Validate keeps the result; an unvalidated match prepares itself on every
// comparison, which is correct but slow.
func (m *StringMatch) prepare() (*preparedMatch, error) {
	if m.Op == OpRegex {
		pattern := m.Value
		if m.insensitive() {
			pattern = "(?i)" + pattern
		}
		re, insts, err := compileRegex(pattern)
		return &preparedMatch{re: re, insts: insts}, err
	}
	want := m.Value
	if m.Op == OpExact {
		want = strings.TrimSpace(want)
	}
	if m.insensitive() {
		want = foldCase(want)
	}
	return &preparedMatch{want: want}, nil
}

// matches reports whether s satisfies m.
func (m *StringMatch) matches(s string) bool { return m.matchesWithin(s, nil) }

// matchesWithin is matches metered by mt: false, without comparing, once mt has stopped or
// the comparison would take it past its budget. A regex reads s's first MatchWindow bytes.
func (m *StringMatch) matchesWithin(s string, mt *Meter) bool {
	p := m.prepared
	if p == nil {
		var err error
		if p, err = m.prepare(); err != nil {
			return false
		}
	}
	s = strings.TrimSpace(s)
	if !mt.spend(p.cost(s)) {
		return false
	}
	switch {
	case p.re != nil:
		return p.re.MatchString(window(s))
	case !m.insensitive() && m.Op == OpContains:
		return strings.Contains(s, p.want)
	case !m.insensitive():
		return s == p.want
	case isASCII(s) && isASCII(p.want): // the usual case, compared in place: no copy per element
		if m.Op == OpContains {
			return containsASCIIFold(s, p.want)
		}
		return len(s) == len(p.want) && containsASCIIFold(s, p.want)
	case m.Op == OpContains:
		return strings.Contains(foldCase(s), p.want)
	}
	return foldCase(s) == p.want
}

// foldCase maps s to a form in which strings that differ only in letter case are equal.
func foldCase(s string) string {
	return strings.Map(func(r rune) rune { return unicode.ToLower(unicode.ToUpper(r)) }, s)
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// containsASCIIFold reports whether the ASCII string s contains want, an ASCII string folded
// (lower-cased), ignoring case. It is foldCase restricted to ASCII, without the copy for a short
// s; a long one is folded and searched in linear time (compared in place, "aaa…" in a long run of
// a's would take len(s) x len(want)).
func containsASCIIFold(s, want string) bool {
	if len(s) > foldInPlace && len(want) > 1 {
		folded := make([]byte, len(s))
		for i := range len(s) {
			folded[i] = lowerASCII(s[i])
		}
		return bytes.Contains(folded, []byte(want))
	}
	for i := 0; i+len(want) <= len(s); i++ {
		j := 0
		for ; j < len(want); j++ {
			if lowerASCII(s[i+j]) != want[j] {
				break
			}
		}
		if j == len(want) {
			return true
		}
	}
	return false
}

// foldInPlace is the longest string containsASCIIFold compares in place, without a copy.
const foldInPlace = 256

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// maxRegexSize bounds how far a regex may expand once counted repetitions are multiplied out,
// before it is compiled: "(a long phrase){1000}" would cost megabytes for one wait. RE2 bounds
// nested counts (1000 in all) but not what they repeat. What the compiled program may cost is
// bounded after (MaxRegexProgram, cost.go).
const maxRegexSize = 10_000

var errRegexTooLarge = errors.New("the regex expands too far (nested counted repetitions); simplify it")

// compileRegex compiles an RE2 pattern whose expansion stays within maxRegexSize, and returns
// it with its program's size (instructions).
func compileRegex(pattern string) (*regexp.Regexp, int, error) {
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, 0, err
	}
	if regexSize(tree) > maxRegexSize {
		return nil, 0, errRegexTooLarge
	}
	insts, err := programSize(tree)
	if err != nil {
		return nil, 0, err
	}
	re, err := regexp.Compile(pattern)
	return re, insts, err
}

// regexSize estimates the program size of re, stopping just past maxRegexSize: a node each, a
// literal's characters each, counted repetitions multiplied out.
func regexSize(re *syntax.Regexp) int {
	n := 1
	if re.Op == syntax.OpLiteral {
		n += len(re.Rune)
	}
	for _, sub := range re.Sub {
		n = min(n+regexSize(sub), maxRegexSize+1)
	}
	if re.Op == syntax.OpRepeat {
		n = min(n*max(re.Min, re.Max, 1), maxRegexSize+1)
	}
	return n
}
