package condition

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/schemas"
)

// FuzzParseCompact: any text parses or is refused with a BAD_REQUEST at a column within it,
// never a panic; what parses renders and parses back to the same canonical form, which the
// schema accepts, and evaluates without a panic.
func FuzzParseCompact(f *testing.F) {
	for _, ex := range compactExamples {
		f.Add(ex.compact)
	}
	for _, r := range renderings {
		f.Add(r.compact)
	}
	f.Add(`(text:"A" or text:"B") and not_a_kind_error_example`)
	f.Add(`element:name=/(/ and text:re"a\\/b"i`)
	f.Add(`state:role=checkbox,state=checked,state=focused`)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCompact(s)
		if err != nil {
			checkRefused(t, s, err)
			return
		}
		checkAccepted(t, c)
	})
}

// refusalCode says whether c is how a condition is refused: a BAD_REQUEST, or a regex too costly
// to evaluate (CONDITION_TOO_COSTLY), both with where the problem is.
func refusalCode(c model.Code) bool {
	return c == model.CodeBadRequest || c == model.CodeConditionTooCostly
}

// checkRefused checks what holds of every refusal of the compact form (conditions, locators):
// a refusal (refusalCode) at a column within the text.
func checkRefused(t *testing.T, s string, err error) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || !refusalCode(e.Code) {
		t.Fatalf("%q: %v", s, err)
	}
	if col, _ := e.Details["position"].(int); col < 1 || col > utf8.RuneCountInString(s)+1 {
		t.Fatalf("%q: position %v outside the text", s, e.Details["position"])
	}
}

// FuzzConditionJSON: any bytes decode or are refused (a JSON syntax error, or a BAD_REQUEST with
// the path of the problem), never a panic; what decodes renders and parses back to the same
// canonical form, which the schema accepts, and evaluates without a panic.
func FuzzConditionJSON(f *testing.F) {
	for _, r := range renderings {
		f.Add([]byte(r.canonical))
	}
	for _, c := range invalidConditions {
		f.Add([]byte(c.json))
	}
	f.Add([]byte(nestedJSON(MaxDepth)))
	f.Add([]byte(`{"kind":"text","text":{"op":"regex","value":"(00000000){100}"}}`)) // too costly, refused with its path
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Condition
		err := json.Unmarshal(data, &c)
		if err != nil {
			var e *model.Error
			var se *json.SyntaxError
			switch {
			case errors.As(err, &se):
			case !errors.As(err, &e) || !refusalCode(e.Code):
				t.Fatalf("%q: %v", data, err)
			case e.Details["path"] == nil:
				t.Fatalf("%q: no path in %v", data, err)
			}
			return
		}
		checkAccepted(t, &c)
	})
}

// checkAccepted checks what holds of every accepted condition.
func checkAccepted(t *testing.T, c *Condition) {
	assertRoundTrip(t, c)
	canonical := marshalCondition(t, c)
	if err := schemas.Validate("condition", canonical); err != nil {
		t.Fatalf("the schema refuses %s (%s): %v", canonical, c, err)
	}
	held, _, _ := c.Holds(notesView())
	c.Holds(&memoryView{})
	for _, n := range notesView().elements {
		c.MatchesElement(n)
	}
	// The engine's shortcut for a thousand waits says what Holds says.
	if c.AppearsOnly() && c.NeedsElements() && c.MatchesAnyOf(notesView().elements, nil) != held {
		t.Fatalf("%s: MatchesAnyOf says %v, Holds %v", c, !held, held)
	}
}
