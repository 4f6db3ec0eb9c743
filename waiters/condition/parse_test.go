package condition

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

// compactExamples are compact forms and the canonical JSON each parses to. The first ones are
// the examples the language was specified with.
var compactExamples = []struct{ compact, canonical string }{
	{`text:"Saved"`, `{"kind":"text","text":"Saved"}`},
	{`text="Saved"`, `{"kind":"text","text":"Saved"}`},
	{`text:/^Saved( at .*)?$/`, `{"kind":"text","text":{"op":"regex","value":"^Saved( at .*)?$"}}`},
	{`text:"Saved" gone`, `{"kind":"text","text":"Saved","gone":true}`},
	{`element:role=button,name~Save`, `{"kind":"element","role":"button","name":{"op":"contains","value":"Save"}}`},
	{`element:name=/^Row 35\d$/ gone`, `{"kind":"element","name":{"op":"regex","value":"^Row 35\\d$"},"gone":true}`},
	{`element:role=checkbox,name="Remember me",state=checked`, `{"kind":"element","role":"checkbox","name":"Remember me","states":["checked"]}`},
	{`window:title~Report`, `{"kind":"window","title":{"op":"contains","value":"Report"}}`},
	{`window`, `{"kind":"window"}`},
	{`window_gone`, `{"kind":"window_gone"}`},
	{`window_gone:title="Report"`, `{"kind":"window_gone","title":"Report"}`},
	{`dialog`, `{"kind":"dialog"}`},
	{`dialog:title~Saved`, `{"kind":"dialog","title":{"op":"contains","value":"Saved"}}`},
	{`focused:role=text_field`, `{"kind":"focused","role":"text_field"}`},
	{`value:e12=42`, `{"kind":"value","target":"e12","value":"42"}`},
	{`value:e12~4`, `{"kind":"value","target":"e12","value":{"op":"contains","value":"4"}}`},
	{`state:e7=checked`, `{"kind":"state","target":"e7","state":"checked"}`},
	{`state:e7!=checked`, `{"kind":"state","target":"e7","state":"checked","on":false}`},
	{`text:"Saved" and dialog`, `{"kind":"all","of":[{"kind":"text","text":"Saved"},{"kind":"dialog"}]}`},

	// Other spellings and the rest of the language.
	{`text~saved`, `{"kind":"text","text":{"op":"contains","value":"saved"}}`},
	{`text:Saved`, `{"kind":"text","text":"Saved"}`},
	{`text = "Saved"  gone`, `{"kind":"text","text":"Saved","gone":true}`},
	{`text:"saved"i`, `{"kind":"text","text":{"op":"exact","value":"saved","case":"insensitive"}}`},
	{`text~"Saved"s`, `{"kind":"text","text":{"op":"contains","value":"Saved","case":"sensitive"}}`},
	{`text~"Saved"i`, `{"kind":"text","text":{"op":"contains","value":"Saved"}}`},
	{`text:/^saved$/i`, `{"kind":"text","text":{"op":"regex","value":"^saved$","case":"insensitive"}}`},
	{`text:"say \"hi\" to C:\Users\\me"`, `{"kind":"text","text":"say \"hi\" to C:\\Users\\me"}`},
	{`text:/https?:\/\/example\.com\//`, `{"kind":"text","text":{"op":"regex","value":"https?://example\\.com/"}}`},
	{`text:re"a\\/b"`, `{"kind":"text","text":{"op":"regex","value":"a\\/b"}}`},
	{`element:name~/^Save/`, `{"kind":"element","name":{"op":"regex","value":"^Save"}}`},
	{`element: role = "push button" , name = Save`, `{"kind":"element","role":"push button","name":"Save"}`},
	{`element:label=Email,description~address,identifier=email-field,value="",text~"@"`,
		`{"kind":"element","label":"Email","description":{"op":"contains","value":"address"},"identifier":"email-field","value":"","text":{"op":"contains","value":"@"}}`},
	{`element:state=enabled,state!=busy,state=focused`, `{"kind":"element","states":["enabled","focused"],"not_states":["busy"]}`},
	{`element:name="and"`, `{"kind":"element","name":"and"}`},
	{`focused:role=text_field,name~Email`, `{"kind":"focused","role":"text_field","name":{"op":"contains","value":"Email"}}`},
	{`value:e3=/^4\d$/`, `{"kind":"value","target":"e3","value":{"op":"regex","value":"^4\\d$"}}`},
	{`value:e0=""`, `{"kind":"value","target":"e0","value":""}`},
	{`value:role=slider,name=Volume,value=42`, `{"kind":"value","role":"slider","name":"Volume","value":"42"}`},
	{`value:state=focused,value~4`, `{"kind":"value","value":{"op":"contains","value":"4"},"states":["focused"]}`},
	{`state:role=checkbox,name="Remember me",state!=checked`, `{"kind":"state","role":"checkbox","name":"Remember me","state":"checked","on":false}`},
	{`text:"A" or text:"B" and dialog`,
		`{"kind":"any","of":[{"kind":"text","text":"A"},{"kind":"all","of":[{"kind":"text","text":"B"},{"kind":"dialog"}]}]}`},
	{`(text:"A" or text:"B") and dialog`,
		`{"kind":"all","of":[{"kind":"any","of":[{"kind":"text","text":"A"},{"kind":"text","text":"B"}]},{"kind":"dialog"}]}`},
	{`(text:"A" and text:"B") and dialog`,
		`{"kind":"all","of":[{"kind":"all","of":[{"kind":"text","text":"A"},{"kind":"text","text":"B"}]},{"kind":"dialog"}]}`},
	{`text:"A" and text:"B" and window`,
		`{"kind":"all","of":[{"kind":"text","text":"A"},{"kind":"text","text":"B"},{"kind":"window"}]}`},
	{`((window))`, `{"kind":"window"}`},

	// Naming no element: the element an action's expect acts on.
	{`state:checked`, `{"kind":"state","state":"checked"}`},
	{`state=checked`, `{"kind":"state","state":"checked"}`},
	{`state!=checked`, `{"kind":"state","state":"checked","on":false}`},
	{`value:"Groceries"`, `{"kind":"value","value":"Groceries"}`},
	{`value:42`, `{"kind":"value","value":"42"}`},
	{`value=42`, `{"kind":"value","value":"42"}`},
	{`value~4`, `{"kind":"value","value":{"op":"contains","value":"4"}}`},
	{`value:/^4\d$/`, `{"kind":"value","value":{"op":"regex","value":"^4\\d$"}}`},
	{`value:"e12"`, `{"kind":"value","value":"e12"}`},
	{`text:"Saved" and state!=busy`, `{"kind":"all","of":[{"kind":"text","text":"Saved"},{"kind":"state","state":"busy","on":false}]}`},
}

func TestParseCompactExamples(t *testing.T) {
	for _, ex := range compactExamples {
		c, err := ParseCompact(ex.compact)
		if err != nil {
			t.Errorf("%s: %v", ex.compact, err)
			continue
		}
		if got := marshalCondition(t, c); !sameJSON(got, []byte(ex.canonical)) {
			t.Errorf("%s:\n got  %s\n want %s", ex.compact, got, ex.canonical)
		}
	}
}

// TestParseCompactErrors: every refusal names the column of the problem and what would do.
func TestParseCompactErrors(t *testing.T) {
	for _, c := range []struct {
		compact  string
		column   int
		message  string // a substring of the message
		expected string // the "expected" detail, for a syntax error; "" for another refusal
	}{
		{`(text:"A" or text:"B") and not_a_kind_error_example`, 28, "found 'not_a_kind_error_example'",
			"a condition: 'text', 'element', 'focused', 'window', 'window_gone', 'dialog', 'value', 'state' or '('"},
		{`element:name,role=button`, 13, "expected '=' or '~' after name, found ','", "'=' or '~' after name"},
		{``, 1, "found the end", "a condition: 'text', 'element', 'focused', 'window', 'window_gone', 'dialog', 'value', 'state' or '('"},
		{`text`, 5, "found the end", "':', '=' or '~' after text"},
		{`text:`, 6, "found the end", "a value: a word, a quoted string or a /regex/"},
		{`text:"Saved`, 12, `expected '"' to close the string opened at column 6`, `'"' to close the string opened at column 6`},
		{`text:/Saved`, 12, "expected '/' to close the regex opened at column 6", "'/' to close the regex opened at column 6"},
		{`text:"Saved" gon`, 14, "found 'gon'", "'gone', 'and', 'or' or the end"},
		{`text:"Saved" gone gone`, 19, "found 'gone'", "'and', 'or' or the end"},
		{`element:name=Save As`, 19, "found 'As'", "',', 'gone', 'and', 'or' or the end"},
		{`element`, 8, "found the end", "':' after element"},
		{`element:colour=red`, 9, "found 'colour'", "a field: 'role', 'name', 'label', 'description', 'identifier', 'value', 'text' or 'state'"},
		{`element:role~button`, 13, "found '~'", "'=' after role"},
		{`element:role=/button/`, 14, "found /button/", `a role: a word or a quoted string, like button or "push button"`},
		{`element:state~checked`, 14, "found '~'", "'=' or '!=' after state"},
		{`element:state=chekced`, 15, `unknown state "chekced"`, ""},
		{`element:state=checked,state!=checked`, 30, `state "checked" is both wanted and unwanted`, ""},
		{`element:name=a,name=b`, 16, "name is given twice", ""},
		{`element:name~""`, 14, "an empty contains match would match everything", ""},
		{`element:name=/(/`, 14, "bad regex: error parsing regexp: missing closing )", ""},
		{`element:name=/(a{40}){40}/`, 14, "invalid repeat count", ""},
		{`element:name=/(abcdefghij){1000}/`, 14, "expands too far", ""},
		{`element:name="x"q`, 17, "found 'q'", "',', 'gone', 'and', 'or' or the end"},
		{`window:name=x`, 8, "found 'name'", "a field: 'title'"},
		{`window title~x`, 8, "found 'title'", "':', 'and', 'or' or the end"},
		{`window:title~x,title~y`, 16, "title is given twice", ""},
		{`value:e12`, 10, "found the end", "'=' or '~' after the element id"},
		{`value:e1x=1`, 7, `target "e1x" is not an element id`, ""},
		{`value:color=1`, 7, "found 'color'", "an element id like e12, a value or a field: 'role', 'name', 'label', 'description', 'identifier', 'value', 'text' or 'state'"},
		{`state:colour=red`, 7, "found 'colour'", "an element id like e12, a state like checked or a field: 'role', 'name', 'label', 'description', 'identifier', 'value', 'text' or 'state'"},
		{`state:chekced`, 7, `unknown state "chekced"`, ""},
		{`state~checked`, 6, "found '~'", "':', '=' or '!=' after state"},
		{`value!=4`, 6, "found '!='", "':', '=' or '~' after value"},
		{`value`, 6, "found the end", "':', '=' or '~' after value"},
		{`state:checked,role=checkbox`, 14, "found ','", "'and', 'or' or the end"},
		{`value:"4",role=slider`, 10, "found ','", "'and', 'or' or the end"},
		{`value:role=slider`, 18, "a value condition needs the value to wait for", ""},
		{`state:e7~checked`, 9, "found '~'", "'=' or '!=' after the element id"},
		{`state:e7=Checked`, 10, `unknown state "Checked"`, ""},
		{`state:role=checkbox`, 20, "a state condition needs the state to test", ""},
		{`state:role=checkbox,state=checked,state=focused`, 35, "a state condition tests one state", ""},
		{`text:"" and dialog`, 6, "the text is empty", ""},
		{`text:"A" and`, 13, "found the end", "a condition: 'text', 'element', 'focused', 'window', 'window_gone', 'dialog', 'value', 'state' or '('"},
		{`(text:"A"`, 10, "found the end", "'gone', 'and', 'or' or ')'"},
		{`text:"A")`, 9, "found ')'", "'gone', 'and', 'or' or the end"},
		{`text:"A" & dialog`, 10, "found '&'", "'gone', 'and', 'or' or the end"},
		{`text:"A" ! dialog`, 10, "found '!'", "'gone', 'and', 'or' or the end"},
		{`text:"A" and text:/(/ and ???`, 19, "bad regex", ""}, // the leftmost problem
		{`(((((((((window)))))))))`, 9, "conditions nest deeper than 8 levels", ""},
		{`window and (window or (window and (window or (window and (window or (window and (window or window)))))))`,
			82, "conditions nest deeper than 8 levels", ""},
		{strings.Repeat("window or ", 32) + "window", 1, "any needs 2 to 32 conditions, not 33", ""},
		{strings.Repeat("(window and window) or ", 16) + "window", 369, "more than 32 conditions", ""},
	} {
		_, err := ParseCompact(c.compact)
		var e *model.Error
		if !errors.As(err, &e) || e.Code != model.CodeBadRequest {
			t.Errorf("%s: want a BAD_REQUEST, got %v", c.compact, err)
			continue
		}
		if !strings.Contains(e.Message, c.message) || !strings.HasPrefix(e.Message, "at column ") {
			t.Errorf("%s: message %q lacks %q", c.compact, e.Message, c.message)
		}
		if e.Details["position"] != c.column {
			t.Errorf("%s: position %v, want %d (%s)", c.compact, e.Details["position"], c.column, e.Message)
		}
		if got, _ := e.Details["expected"].(string); got != c.expected {
			t.Errorf("%s: expected %q, want %q", c.compact, got, c.expected)
		}
		if e.Suggestion == "" {
			t.Errorf("%s: no suggestion", c.compact)
		}
	}
}

// TestParseCompactSuggestsTheKind: a syntax error's suggestion shows examples of the kind being
// written.
func TestParseCompactSuggestsTheKind(t *testing.T) {
	for compact, example := range map[string]string{
		`dialog and element:role`: "element:role=button,name~Save",
		`value:role=slider`:       "value:e12=42", // in the compact form, not JSON
		`state:role=checkbox`:     "state:e7=checked",
	} {
		_, err := ParseCompact(compact)
		var e *model.Error
		if !errors.As(err, &e) || !strings.Contains(e.Suggestion, example) {
			t.Errorf("%s: suggestion of %v lacks %q", compact, err, example)
		}
	}
}

// marshalCondition is the canonical JSON of c.
func marshalCondition(t testing.TB, c *Condition) []byte {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatalf("marshal %s: %v", c, err)
	}
	return b
}

// sameJSON compares two JSON documents structurally.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
