package condition

import (
	"encoding/json"
	"testing"

	"github.com/axbus/axbus/schemas"
)

// TestSchemaAcceptsCanonical: every condition the tests produce validates against the published
// schema, in its canonical form and as the test wrote it.
func TestSchemaAcceptsCanonical(t *testing.T) {
	var docs []string
	for _, ex := range compactExamples {
		c, err := ParseCompact(ex.compact)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(marshalCondition(t, c)), ex.canonical)
	}
	for _, r := range renderings {
		docs = append(docs, r.canonical)
	}
	docs = append(docs, nestedJSON(MaxDepth),
		`{"kind":"text","text":{"op":"exact","value":" x ","case":"insensitive"}}`,
		`{"kind":"text","text":{"op":"regex","value":"^$"}}`,
		`{"kind":"element","role":"slider","not_states":["busy"],"gone":false}`,
		`{"kind":"value","states":["focused"],"value":{"op":"contains","value":" "}}`,
		`{"kind":"state","text":"Remember me","state":"checked","on":true}`,
	)
	for _, doc := range docs {
		var c Condition
		if err := json.Unmarshal([]byte(doc), &c); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
		if err := schemas.Validate("condition", []byte(doc)); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
	}
}

// TestSchemaRefusesInvalid: the schema refuses what decoding refuses, where JSON Schema can say
// it; where it cannot, it accepts, and only decoding stands between the request and the engine.
func TestSchemaRefusesInvalid(t *testing.T) {
	for _, c := range invalidConditions {
		err := schemas.Validate("condition", []byte(c.json))
		switch {
		case c.schemaRefuses && err == nil:
			t.Errorf("the schema accepts %.100s (%s)", c.json, c.message)
		case !c.schemaRefuses && err != nil:
			t.Errorf("the schema refuses %.100s, which the table says it cannot: %v", c.json, err)
		}
	}
}
