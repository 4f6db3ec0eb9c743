package condition

import (
	"encoding/json"
	"testing"
)

// renderings are canonical conditions and their canonical compact form.
var renderings = []struct{ canonical, compact string }{
	{`{"kind":"text","text":"Saved"}`, `text:"Saved"`},
	{`{"kind":"text","text":{"op":"exact","value":"Saved","case":"sensitive"}}`, `text:"Saved"`},
	{`{"kind":"text","text":{"op":"contains","value":"Saved"}}`, `text~"Saved"`},
	{`{"kind":"text","text":{"op":"contains","value":"Saved","case":"insensitive"}}`, `text~"Saved"`},
	{`{"kind":"text","text":{"op":"contains","value":"Saved","case":"sensitive"}}`, `text~"Saved"s`},
	{`{"kind":"text","text":{"op":"exact","value":"saved","case":"insensitive"}}`, `text:"saved"i`},
	{`{"kind":"text","text":{"op":"regex","value":"^Saved( at .*)?$"}}`, `text:/^Saved( at .*)?$/`},
	{`{"kind":"text","text":{"op":"regex","value":"^saved$","case":"insensitive"}}`, `text:/^saved$/i`},
	{`{"kind":"text","text":"Saved","gone":true}`, `text:"Saved" gone`},
	{`{"kind":"text","text":"say \"hi\" \\ bye"}`, `text:"say \"hi\" \\ bye"`},
	{`{"kind":"text","text":"two\nlines"}`, "text:\"two\nlines\""},
	{`{"kind":"text","text":{"op":"regex","value":"https?://x/"}}`, `text:/https?:\/\/x\//`},
	{`{"kind":"text","text":{"op":"regex","value":"a\\\\b\\d"}}`, `text:/a\\b\d/`},
	{`{"kind":"text","text":{"op":"regex","value":"a\\/b"}}`, `text:re"a\\/b"`},
	{`{"kind":"text","text":{"op":"regex","value":"a\\/b","case":"insensitive"}}`, `text:re"a\\/b"i`},
	{`{"kind":"element","role":"button","name":{"op":"contains","value":"Save"}}`, `element:role=button,name~Save`},
	{`{"kind":"element","role":"push button","name":"Save As…"}`, `element:role="push button",name="Save As…"`},
	{`{"kind":"element","name":"Größe","value":"4.5","text":"-1"}`, `element:name=Größe,value=4.5,text=-1`},
	{`{"kind":"element","name":"and","label":"or","description":"gone","identifier":""}`,
		`element:name="and",label="or",description="gone",identifier=""`},
	{`{"kind":"element","name":{"op":"exact","value":"save","case":"insensitive"}}`, `element:name="save"i`},
	{`{"kind":"element","name":{"op":"regex","value":"^Row 35\\d$"},"gone":true}`, `element:name=/^Row 35\d$/ gone`},
	{`{"kind":"element","not_states":["busy"],"states":["enabled","focused"],"role":"checkbox"}`,
		`element:role=checkbox,state=enabled,state=focused,state!=busy`},
	{`{"kind":"focused","role":"text_field"}`, `focused:role=text_field`},
	{`{"kind":"window"}`, `window`},
	{`{"kind":"window","title":{"op":"contains","value":"Report"}}`, `window:title~Report`},
	{`{"kind":"window_gone"}`, `window_gone`},
	{`{"kind":"window_gone","title":"Report 2"}`, `window_gone:title="Report 2"`},
	{`{"kind":"dialog","title":{"op":"regex","value":"^Save"}}`, `dialog:title=/^Save/`},
	{`{"kind":"value","target":"e12","value":"42"}`, `value:e12=42`},
	{`{"kind":"value","target":"e12","value":{"op":"contains","value":"4"}}`, `value:e12~4`},
	{`{"kind":"value","target":"e12","value":""}`, `value:e12=""`},
	{`{"kind":"value","role":"slider","name":"Volume","value":"42"}`, `value:role=slider,name=Volume,value=42`},
	{`{"kind":"state","target":"e7","state":"checked"}`, `state:e7=checked`},
	{`{"kind":"state","target":"e7","state":"checked","on":true}`, `state:e7=checked`},
	{`{"kind":"state","target":"e7","state":"checked","on":false}`, `state:e7!=checked`},
	{`{"kind":"state","role":"checkbox","name":"Remember me","state":"checked","on":false}`,
		`state:role=checkbox,name="Remember me",state!=checked`},
	{`{"kind":"state","state":"checked"}`, `state:checked`},
	{`{"kind":"state","state":"checked","on":false}`, `state!=checked`},
	{`{"kind":"value","value":"42"}`, `value:"42"`},
	{`{"kind":"value","value":{"op":"contains","value":"4"}}`, `value~"4"`},
	{`{"kind":"value","value":{"op":"regex","value":"^4"}}`, `value:/^4/`},
	{`{"kind":"value","value":"e12"}`, `value:"e12"`},
	{`{"kind":"all","of":[{"kind":"text","text":"Saved"},{"kind":"dialog"}]}`, `text:"Saved" and dialog`},
	{`{"kind":"any","of":[{"kind":"text","text":"A"},{"kind":"all","of":[{"kind":"text","text":"B"},{"kind":"dialog"}]}]}`,
		`text:"A" or text:"B" and dialog`},
	{`{"kind":"all","of":[{"kind":"any","of":[{"kind":"text","text":"A"},{"kind":"text","text":"B"}]},{"kind":"dialog"}]}`,
		`(text:"A" or text:"B") and dialog`},
	{`{"kind":"all","of":[{"kind":"all","of":[{"kind":"window"},{"kind":"dialog"}]},{"kind":"window_gone"}]}`,
		`(window and dialog) and window_gone`},
	{`{"kind":"any","of":[{"kind":"any","of":[{"kind":"window"},{"kind":"dialog"}]},{"kind":"window_gone"}]}`,
		`(window or dialog) or window_gone`},
}

// TestStringRoundTrip: String renders the canonical compact form, and it parses back to the same
// canonical JSON.
func TestStringRoundTrip(t *testing.T) {
	for _, r := range renderings {
		var c Condition
		if err := json.Unmarshal([]byte(r.canonical), &c); err != nil {
			t.Errorf("%s: %v", r.canonical, err)
			continue
		}
		if got := c.String(); got != r.compact {
			t.Errorf("%s: String %s, want %s", r.canonical, got, r.compact)
		}
		assertRoundTrip(t, &c)
	}
	for _, ex := range compactExamples {
		c, err := ParseCompact(ex.compact)
		if err != nil {
			t.Fatalf("%s: %v", ex.compact, err)
		}
		assertRoundTrip(t, c)
	}
}

// assertRoundTrip checks that c's compact rendering and its JSON both give c back.
func assertRoundTrip(t testing.TB, c *Condition) {
	t.Helper()
	want := marshalCondition(t, c)
	again, err := ParseCompact(c.String())
	if err != nil {
		t.Fatalf("%s renders %q, which does not parse: %v", want, c.String(), err)
	}
	if got := marshalCondition(t, again); !sameJSON(got, want) {
		t.Fatalf("%s renders %q, which parses to %s", want, c.String(), got)
	}
	var decoded Condition
	if err := json.Unmarshal(want, &decoded); err != nil {
		t.Fatalf("%s does not decode: %v", want, err)
	}
	if got := marshalCondition(t, &decoded); string(got) != string(want) {
		t.Fatalf("%s decodes and encodes to %s", want, got)
	}
}
