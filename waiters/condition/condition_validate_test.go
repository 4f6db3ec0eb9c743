package condition

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

// invalidConditions are JSON conditions that decoding refuses: the JSON pointer of the problem,
// a substring of the message, and whether the schema refuses them too (false where JSON Schema
// cannot say it: regex cost, a state both wanted and unwanted, depth, the number of leaves).
var invalidConditions = []struct {
	json, path, message string
	schemaRefuses       bool
}{
	{`{}`, "/kind", "kind is missing", true},
	{`null`, "", "a condition is a JSON object", true},
	{`[]`, "", "a condition is a JSON object", true},
	{`{"kind":"txt"}`, "/kind", `unknown kind "txt"`, true},
	{`{"kind":1}`, "/kind", "must be a string", true},
	{`{"kind":"text","text":"Saved","colour":"red"}`, "/colour", `unknown field "colour"`, true},
	{`{"kind":"text","text":"Saved","title":"x"}`, "/title", "title does not apply to a text condition", true},
	{`{"kind":"text","text":"Saved","on":true}`, "/on", "on does not apply to a text condition", true},
	{`{"kind":"window","gone":false}`, "/gone", "gone does not apply to a window condition", true},
	{`{"kind":"focused","role":"button","gone":true}`, "/gone", "gone does not apply to a focused condition", true},
	{`{"kind":"element","role":"button","of":[]}`, "/of", "of does not apply to an element condition", true},
	{`{"kind":"text"}`, "/text", "needs the text to wait for", true},
	{`{"kind":"text","text":" \t"}`, "/text", "the text is empty", true},
	{`{"kind":"text","text":{"op":"exact","value":""}}`, "/text", "the text is empty", true},
	{`{"kind":"text","text":null}`, "/text", "a match is a string or an object", true},
	{`{"kind":"text","text":42}`, "/text", "a match is a string or an object", true},
	{`{"kind":"text","text":"Saved","gone":"yes"}`, "/gone", "must be true or false", true},
	{`{"kind":"text","text":{"op":"regex","value":"("}}`, "/text", "bad regex", true},
	{`{"kind":"text","text":{"op":"regex","value":"(abcdefghij){1000}"}}`, "/text", "expands too far", false},
	{`{"kind":"text","text":{"op":"like","value":"x"}}`, "/text/op", `op "like" is not exact, contains or regex`, true},
	{`{"kind":"text","text":{"op":"exact","value":"x","case":"upper"}}`, "/text/case", `case "upper"`, true},
	{`{"kind":"text","text":{"op":"exact","value":"x","flags":"g"}}`, "/text/flags", `unknown field "flags"`, true},
	{`{"kind":"text","text":{"value":"x"}}`, "/text/op", "op is missing", true},
	{`{"kind":"text","text":{"op":"exact"}}`, "/text/value", "value is missing", true},
	{`{"kind":"text","text":{"op":"exact","value":7}}`, "/text/value", "must be a string", true},
	{`{"kind":"text","text":{"op":"contains","value":""}}`, "/text", "an empty contains match would match everything", true},
	{`{"kind":"text","text":{"op":"regex","value":""}}`, "/text", "an empty regex match would match everything", true},
	{`{"kind":"text","text":"` + strings.Repeat("é", 1001) + `"}`, "/text", "longer than 1000 characters", true},
	{`{"kind":"element"}`, "", "an element condition needs at least one of role, name", true},
	{`{"kind":"element","gone":true}`, "", "needs at least one of", true},
	{`{"kind":"focused"}`, "", "a focused condition needs at least one of", true},
	{`{"kind":"element","role":""}`, "/role", "must not be empty", true},
	{`{"kind":"element","role":"` + strings.Repeat("x", 1001) + `"}`, "/role", "role is longer than 1000 characters", true},
	{`{"kind":"element","states":["checked","chekced"]}`, "/states/1", `unknown state "chekced"`, true},
	{`{"kind":"element","states":["Checked"]}`, "/states/0", `unknown state "Checked"`, true},
	{`{"kind":"element","states":["checked","checked"]}`, "/states/1", `state "checked" is given twice`, true},
	{`{"kind":"element","states":[]}`, "/states", "the list of states is empty", true},
	{`{"kind":"element","states":"checked"}`, "/states", "must be a list of state names", true},
	{`{"kind":"element","states":[true]}`, "/states/0", "must be a string", true},
	{`{"kind":"element","states":["busy"],"not_states":["enabled","busy"]}`, "/not_states/1", `state "busy" is both wanted and unwanted`, false},
	{`{"kind":"value","target":"e12"}`, "/value", "a value condition needs the value to wait for", true},
	{`{"kind":"value","target":"12","value":"42"}`, "/target", `target "12" is not an element id`, true},
	{`{"kind":"value","target":"e012","value":"42"}`, "/target", "is not an element id", true},
	{`{"kind":"value","target":"e+5","value":"42"}`, "/target", "is not an element id", true},
	{`{"kind":"state","target":"e-0","state":"checked"}`, "/target", "is not an element id", true},
	{`{"kind":"value","target":"","value":"42"}`, "/target", "must not be empty", true},
	{`{"kind":"value","target":"e1","role":"slider","value":"4"}`, "/role", "give target or element fields, not both", true},
	{`{"kind":"state","target":"e7"}`, "/state", "a state condition needs the state to test", true},
	{`{"kind":"state","target":"e7","state":"pushed"}`, "/state", `unknown state "pushed"`, true},
	{`{"kind":"state","target":"e7","state":"checked","on":"no"}`, "/on", "must be true or false", true},
	{`{"kind":"state","role":"checkbox","states":["enabled"],"state":"checked"}`, "/states", "states does not apply to a state condition", true},
	{`{"kind":"state","target":"e7","name":"x","state":"checked"}`, "/name", "give target or element fields, not both", true},
	{`{"kind":"window","title":{"op":"regex","value":"a","x":1}}`, "/title/x", `unknown field "x"`, true},
	{`{"kind":"all","of":[{"kind":"window"}]}`, "/of", "all needs 2 to 32 conditions, not 1", true},
	{`{"kind":"any","of":[]}`, "/of", "any needs 2 to 32 conditions, not 0", true},
	{`{"kind":"any"}`, "/of", "any needs 2 to 32 conditions, not 0", true},
	{`{"kind":"all","of":"window"}`, "/of", "of is a list of conditions", true},
	{`{"kind":"all","of":[{"kind":"window"},null]}`, "/of/1", "a condition is a JSON object", true},
	{`{"kind":"all","of":[{"kind":"window"},{"kind":"value","target":"x","value":"1"}]}`, "/of/1/target", `target "x" is not an element id`, true},
	{`{"kind":"all","of":[{"kind":"window"},{"kind":"any","of":[{"kind":"dialog"},{"kind":"text","text":"A","colour":1}]}]}`,
		"/of/1/of/1/colour", `unknown field "colour"`, true},
	{`{"kind":"any","of":[` + strings.Repeat(`{"kind":"window"},`, 32) + `{"kind":"window"}]}`, "/of", "any needs 2 to 32 conditions, not 33", true},
	{nestedJSON(MaxDepth + 1), "/of/0/of/0/of/0/of/0/of/0/of/0/of/0/of/0", "conditions nest deeper than 8 levels", false},
	{`{"kind":"any","of":[` + strings.Repeat(`{"kind":"all","of":[{"kind":"window"},{"kind":"dialog"}]},`, 16) + `{"kind":"window"}]}`,
		"/of/16", "more than 32 conditions", false},
}

// nestedJSON is a condition whose leaves lie at the given depth.
func nestedJSON(depth int) string {
	if depth == 1 {
		return `{"kind":"window"}`
	}
	return `{"kind":"all","of":[` + nestedJSON(depth-1) + `,{"kind":"dialog"}]}`
}

// TestDecodeRefusals: decoding refuses each invalid condition with a BAD_REQUEST that gives the
// JSON pointer of the problem.
func TestDecodeRefusals(t *testing.T) {
	for _, c := range invalidConditions {
		var cond Condition
		err := json.Unmarshal([]byte(c.json), &cond)
		var e *model.Error
		if !errors.As(err, &e) || e.Code != model.CodeBadRequest {
			t.Errorf("%.80s: want a BAD_REQUEST, got %v", c.json, err)
			continue
		}
		if e.Details["path"] != c.path {
			t.Errorf("%.80s: path %q, want %q (%s)", c.json, e.Details["path"], c.path, e.Message)
		}
		if !strings.Contains(e.Message, c.message) {
			t.Errorf("%.80s: message %q lacks %q", c.json, e.Message, c.message)
		}
		wantPrefix := "condition: "
		if c.path != "" {
			wantPrefix = "condition at " + c.path + ": "
		}
		if !strings.HasPrefix(e.Message, wantPrefix) || e.Suggestion == "" {
			t.Errorf("%.80s: message %q, suggestion %q", c.json, e.Message, e.Suggestion)
		}
	}
}

// TestValidateBuilt: Validate checks conditions built in Go as decoding checks JSON, including
// what JSON cannot say (a missing term, a field set where the kind takes none).
func TestValidateBuilt(t *testing.T) {
	for _, c := range []struct {
		cond *Condition
		path string
	}{
		{&Condition{Kind: KindText, Text: Exact("Saved"), Off: true}, "/on"},
		{&Condition{Kind: KindWindow, Gone: true}, "/gone"},
		{&Condition{Kind: KindAll, Of: []*Condition{{Kind: KindWindow}, nil}}, "/of/1"},
		{&Condition{Kind: KindText, Text: &StringMatch{Value: "x"}}, "/text/op"},
		{&Condition{Kind: KindElement, States: []string{}}, "/states"},
		{&Condition{Kind: KindElement, Role: "button", Of: []*Condition{}}, "/of"},
		{&Condition{}, "/kind"},
	} {
		err := c.cond.Validate()
		var e *model.Error
		if !errors.As(err, &e) || e.Details["path"] != c.path {
			t.Errorf("%+v: got %v, want a refusal at %s", c.cond, err, c.path)
		}
	}
}

// TestValidateIdempotent: validating again changes nothing and keeps the condition ready.
func TestValidateIdempotent(t *testing.T) {
	c := &Condition{Kind: KindAll, Of: []*Condition{
		{Kind: KindText, Text: Regex("^Saved$")},
		{Kind: KindElement, Role: "checkbox", States: []string{"checked"}},
	}}
	for i := range 3 {
		if err := c.Validate(); err != nil {
			t.Fatalf("validation %d: %v", i, err)
		}
	}
	if c.Of[0].Text.prepared == nil || c.Of[1].compiled == nil {
		t.Fatal("not prepared")
	}
	if got := c.String(); got != `text:/^Saved$/ and element:role=checkbox,state=checked` {
		t.Fatalf("String %s", got)
	}
	c.Of[0].Text.Value = "("
	if err := c.Validate(); err == nil {
		t.Fatal("a changed condition was not checked again")
	}
}

// TestStringMatchJSON: a match decodes alone too, and refuses what a condition's match refuses.
func TestStringMatchJSON(t *testing.T) {
	var m StringMatch
	if err := json.Unmarshal([]byte(`{"op":"contains","value":"Save","case":"insensitive"}`), &m); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(m); string(b) != `{"op":"contains","value":"Save"}` {
		t.Fatalf("canonical form %s", b)
	}
	if err := json.Unmarshal([]byte(`{"op":"regex","value":"["}`), &m); err == nil {
		t.Fatal("bad regex accepted")
	}
	if err := json.Unmarshal([]byte(`"Save"`), &m); err != nil || m.Op != OpExact || m.Value != "Save" {
		t.Fatalf("%+v %v", m, err)
	}
}

func ExampleCondition_Validate() {
	c := &Condition{Kind: KindValue, Target: "elem12", Value: Exact("42")}
	err := c.Validate()
	fmt.Println(err)
	fmt.Println(model.AsError(err).Details["path"])
	// Output:
	// BAD_REQUEST: condition at /target: target "elem12" is not an element id
	// /target
}
