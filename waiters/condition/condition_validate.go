package condition

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/axbus/axbus/model"
)

// Validate checks c and prepares it for matching: it compiles the regexes and resolves the
// state names. It is idempotent; change a condition after validating it and validate it again.
// A refusal is a BAD_REQUEST *model.Error whose "path" detail is the JSON pointer of the
// problem within the condition ("/of/1/target"; "" for the whole condition) and whose
// suggestion says what would be accepted.
func (c *Condition) Validate() error {
	if f := c.check("", 1, new(int)); f != nil {
		return f.err()
	}
	return nil
}

// fault is why a condition was refused: the node it is in and that node's JSON pointer, the
// field of the node (a JSON pointer relative to it: "/name", "/states/1"; "" for the node
// itself), what is wrong and what to do instead (empty: show an example of the node's kind).
// Decoding and Validate place it by JSON pointer, ParseCompact by column.
type fault struct {
	node        *Condition
	path, field string
	what        string
	suggestion  string
	code        model.Code // "" is BAD_REQUEST
}

// codeOf is the error code of f.
func (f *fault) codeOf() model.Code {
	if f.code == "" {
		return model.CodeBadRequest
	}
	return f.code
}

// schemaHint is the suggestion when no more specific one helps.
const schemaHint = "See the condition's schema with: axbus schema condition"

func (f *fault) err() *model.Error {
	at := f.path + f.field
	msg := "condition: " + f.what
	if at != "" {
		msg = "condition at " + at + ": " + f.what
	}
	suggestion := f.suggestion
	if suggestion == "" {
		suggestion = jsonKindExamples[f.node.Kind]
	}
	return model.Errorf(f.codeOf(), suggestion, "%s", msg).With("path", at)
}

// jsonKindExamples are the suggestions of faults that lack something, by kind.
var jsonKindExamples = map[Kind]string{
	KindText:       `e.g. {"kind": "text", "text": "Saved"}`,
	KindElement:    `e.g. {"kind": "element", "role": "button", "name": {"op": "contains", "value": "Save"}}`,
	KindFocused:    `e.g. {"kind": "focused", "role": "text_field"}`,
	KindWindow:     `e.g. {"kind": "window", "title": {"op": "contains", "value": "Report"}}`,
	KindWindowGone: `e.g. {"kind": "window_gone", "title": "Report"}`,
	KindDialog:     `e.g. {"kind": "dialog"}`,
	KindValue:      `e.g. {"kind": "value", "target": "e12", "value": "42"}, or in an expect {"kind": "value", "value": "42"}`,
	KindState:      `e.g. {"kind": "state", "target": "e7", "state": "checked", "on": false}`,
	KindAll:        `e.g. {"kind": "all", "of": [{"kind": "text", "text": "Saved"}, {"kind": "dialog"}]}`,
	KindAny:        `e.g. {"kind": "any", "of": [{"kind": "text", "text": "Saved"}, {"kind": "dialog"}]}`,
}

// check validates c, found at path and depth, counting its leaves into terms, and prepares it.
// The whole condition (depth 1) is refused, too, when its regexes cost too much (cost.go).
func (c *Condition) check(path string, depth int, terms *int) *fault {
	if f := c.checkTerms(path, depth, terms); f != nil || depth > 1 {
		return f
	}
	return c.costFault(path, new(int))
}

// checkTerms is check without the cost: c and its terms, each on its own.
func (c *Condition) checkTerms(path string, depth int, terms *int) *fault {
	if depth > MaxDepth {
		return tooDeep(c, path)
	}
	if f := c.checkNode(); f != nil {
		f.node, f.path = c, path
		return f
	}
	if c.isLeaf() {
		if *terms++; *terms > MaxTerms {
			return &fault{node: c, path: path, what: fmt.Sprintf("more than %d conditions", MaxTerms),
				suggestion: "Wait for fewer things at once, or split the wait in two."}
		}
		return nil
	}
	for i, sub := range c.Of {
		at := "/of/" + strconv.Itoa(i)
		if sub == nil {
			return &fault{node: c, path: path, field: at, what: "a condition of the list is missing", suggestion: schemaHint}
		}
		if f := sub.check(path+at, depth+1, terms); f != nil {
			return f
		}
	}
	return nil
}

func tooDeep(c *Condition, path string) *fault {
	return &fault{node: c, path: path, what: tooDeepWhat, suggestion: tooDeepHint}
}

var tooDeepWhat = fmt.Sprintf("conditions nest deeper than %d levels", MaxDepth)

const tooDeepHint = "Flatten the condition: a and (b and c) is a and b and c."

// checkNode validates c's own fields, not those of its terms, and prepares them. The fault's
// field is relative to c.
func (c *Condition) checkNode() *fault {
	allowed, known := kindFields[c.Kind]
	switch {
	case c.Kind == "":
		return &fault{field: "/kind", what: "kind is missing", suggestion: kindHint()}
	case !known:
		return &fault{field: "/kind", what: fmt.Sprintf("unknown kind %q", c.Kind), suggestion: kindHint()}
	}
	if extra := c.given() &^ allowed; extra != 0 {
		return notForKind(extra.first(), c.Kind)
	}
	if f := c.checkRequired(); f != nil {
		return f
	}
	if utf8.RuneCountInString(c.Role) > MaxMatchLength {
		return &fault{field: "/role", what: fmt.Sprintf("role is longer than %d characters", MaxMatchLength), suggestion: roleHint}
	}
	for _, m := range c.matchFields() {
		if *m.at == nil {
			continue
		}
		if f := (*m.at).check(); f != nil {
			f.field = "/" + m.name + f.field
			return f
		}
	}
	if f := c.checkStates(); f != nil {
		return f
	}
	if c.Target != "" && !isElementID(c.Target) {
		return &fault{field: "/target", what: fmt.Sprintf("target %q is not an element id", c.Target),
			suggestion: `Element ids look like "e12"; take one from the snapshot's listing.`}
	}
	if c.State != "" && !isStateName(c.State) {
		return &fault{field: "/state", what: fmt.Sprintf("unknown state %q", c.State), suggestion: stateHint()}
	}
	if c.isLeaf() {
		cs := compileStates(c)
		c.compiled = &cs
	}
	return nil
}

func notForKind(field string, k Kind) *fault {
	return &fault{field: "/" + field, what: fmt.Sprintf("%s does not apply to %s condition", field, withArticle(k)),
		suggestion: fmt.Sprintf("%s condition takes: %s.", capitalized(withArticle(k)), kindFields[k].names())}
}

// withArticle writes "a text", "an element".
func withArticle(k Kind) string {
	if strings.IndexAny(string(k), "aeiou") == 0 {
		return "an " + string(k)
	}
	return "a " + string(k)
}

func capitalized(s string) string {
	return strings.ToUpper(s[:1]) + s[1:]
}

// checkRequired checks that c gives what its kind needs.
func (c *Condition) checkRequired() *fault {
	given := c.given()
	switch c.Kind {
	case KindAll, KindAny:
		if n := len(c.Of); n < 2 || n > MaxTerms {
			return &fault{field: "/of", what: fmt.Sprintf("%s needs 2 to %d conditions, not %d", c.Kind, MaxTerms, n),
				suggestion: "Give a single condition on its own, not in a list."}
		}
	case KindText:
		switch {
		case c.Text == nil:
			return &fault{field: "/text", what: "a text condition needs the text to wait for"}
		case c.Text.Op == OpExact && strings.TrimSpace(c.Text.Value) == "":
			return &fault{field: "/text", what: "the text is empty: it would match every element that shows none",
				suggestion: "Give the text to wait for."}
		}
	case KindElement, KindFocused:
		if given&elementFields == 0 {
			return &fault{what: fmt.Sprintf("%s condition needs at least one of %s", withArticle(c.Kind), elementFields.names())}
		}
	case KindValue:
		if c.Value == nil {
			return &fault{field: "/value", what: "a value condition needs the value to wait for"}
		}
		return c.checkSelector(given&^fieldValue, elementFields&^fieldValue)
	case KindState:
		if c.State == "" {
			return &fault{field: "/state", what: "a state condition needs the state to test"}
		}
		return c.checkSelector(given, selectorFields)
	}
	return nil
}

// checkSelector checks that a value or state condition names its element at most one way: by
// target, or by element fields. Naming none, it tests the element an action acts on.
func (c *Condition) checkSelector(given, selectors fieldSet) *fault {
	if c.Target != "" && given&selectors != 0 {
		return &fault{field: "/" + (given & selectors).first(), what: "give target or element fields, not both",
			suggestion: "Name the element by its id (target) or describe it (role, name, ...)."}
	}
	return nil
}

// CheckElementsNamed refuses, as BAD_REQUEST with the leaf's JSON pointer, a condition with a
// value or state that names no element: only an action's expect may leave it out (its action's
// target is the element); a wait must name it.
func (c *Condition) CheckElementsNamed() error {
	if f := c.elementFreeFault(""); f != nil {
		return f.err()
	}
	return nil
}

func (c *Condition) elementFreeFault(path string) *fault {
	if c.isElementFree() {
		named := *c
		named.Target = "eN"
		return &fault{node: c, path: path, what: fmt.Sprintf("%s names no element: only an action's expect may leave it out, to test the action's target", c),
			suggestion: fmt.Sprintf("Name the element: %s with the snapshot its id eN comes from (--snapshot), or describe it (%s:role=...,name=...).", &named, c.Kind)}
	}
	for i, sub := range c.Of {
		if sub == nil {
			continue
		}
		if f := sub.elementFreeFault(path + "/of/" + strconv.Itoa(i)); f != nil {
			return f
		}
	}
	return nil
}

// checkStates checks the state lists: known names, each once, none both wanted and unwanted.
func (c *Condition) checkStates() *fault {
	for _, list := range []struct {
		field string
		names []string
	}{{"/states", c.States}, {"/not_states", c.NotStates}} {
		if list.names != nil && len(list.names) == 0 {
			return &fault{field: list.field, what: "the list of states is empty", suggestion: "Give at least one state, or leave the field out."}
		}
		for i, name := range list.names {
			at := list.field + "/" + strconv.Itoa(i)
			switch {
			case !isStateName(name):
				return &fault{field: at, what: fmt.Sprintf("unknown state %q", name), suggestion: stateHint()}
			case slices.Index(list.names, name) < i:
				return &fault{field: at, what: fmt.Sprintf("state %q is given twice", name), suggestion: "Give each state once."}
			case list.field == "/not_states" && slices.Contains(c.States, name):
				return &fault{field: at, what: fmt.Sprintf("state %q is both wanted and unwanted", name), suggestion: "Give each state once."}
			}
		}
	}
	return nil
}

// check validates m; the fault's field is relative to m ("" for its value).
func (m *StringMatch) check() *fault {
	switch m.Op {
	case OpExact, OpContains, OpRegex:
	default:
		return &fault{field: "/op", what: fmt.Sprintf("op %q is not exact, contains or regex", m.Op), suggestion: matchHint}
	}
	switch m.Case {
	case "", CaseSensitive, CaseInsensitive:
	default:
		return &fault{field: "/case", what: fmt.Sprintf("case %q is not sensitive or insensitive", m.Case), suggestion: matchHint}
	}
	if utf8.RuneCountInString(m.Value) > MaxMatchLength {
		return &fault{what: fmt.Sprintf("the value is longer than %d characters", MaxMatchLength), suggestion: "Match a shorter, distinctive part with contains."}
	}
	if m.Op != OpExact && m.Value == "" {
		return &fault{what: fmt.Sprintf("an empty %s match would match everything", m.Op), suggestion: "Give a value, or leave the field out."}
	}
	p, err := m.prepare()
	if err != nil {
		return &fault{what: "bad regex: " + err.Error(), suggestion: "Write the regex in RE2 syntax (https://github.com/google/re2/wiki/Syntax); it is unanchored unless it says ^ or $."}
	}
	m.prepared = p
	return nil
}

const (
	matchHint = `A match is a string (exact) or {"op": "exact"|"contains"|"regex", "value": "...", "case": "sensitive"|"insensitive"}.`
	roleHint  = `Give a role like "button" or the platform's, like "AXButton" or "push button".`
)

func kindHint() string {
	names := make([]string, len(kindOrder))
	for i, k := range kindOrder {
		names[i] = string(k)
	}
	return "Use one of the kinds: " + strings.Join(names, ", ") + "."
}

func stateHint() string {
	return "Use one of the states: " + strings.Join(model.StateNames(), ", ") + "."
}

// isElementID reports whether s is an element id as snapshots write them: e and a number
// without sign or leading zero.
func isElementID(s string) bool {
	_, ok := model.ParseElementID(s)
	return ok
}

// isStateName reports whether name is a state's canonical (lower-case) name.
func isStateName(name string) bool { return slices.Contains(model.StateNames(), name) }
