package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// apiNames: the request and reply schemas, the ones tools are made of.
func apiNames() []string {
	var out []string
	for _, n := range Names() {
		if strings.HasSuffix(n, ".request") || strings.HasSuffix(n, ".reply") {
			out = append(out, n)
		}
	}
	return out
}

// refuseLoader fails every load: a bundle must compile without fetching anything.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("bundle refers outside itself: %s", url)
}

// compileBundled compiles the bundle of name as a standalone document.
func compileBundled(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	b, err := Bundled(name)
	if err != nil {
		t.Fatalf("Bundled(%s): %v", name, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(refuseLoader{})
	url := "https://bundle.invalid/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: compile the bundle: %v", name, err)
	}
	return s
}

// refs lists every "$ref" in v.
func refs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && k == "$ref" {
				out = append(out, s)
			} else {
				out = append(out, refs(e)...)
			}
		}
	case []any:
		for _, e := range v {
			out = append(out, refs(e)...)
		}
	}
	return out
}

func TestBundledIsSelfContained(t *testing.T) {
	names := apiNames()
	if len(names) < 10 {
		t.Fatalf("only %d request and reply schemas: %v", len(names), names)
	}
	for _, name := range names {
		b, err := Bundled(name)
		if err != nil {
			t.Errorf("Bundled(%s): %v", name, err)
			continue
		}
		if strings.Contains(string(b), "urn:axbus:") {
			t.Errorf("%s: the bundle still names urn:axbus:", name)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, k := range []string{"$schema", "$id"} {
			if _, ok := doc[k]; ok {
				t.Errorf("%s: the bundle keeps %s", name, k)
			}
		}
		var orig map[string]any
		raw, _ := Get(name)
		if err := json.Unmarshal(raw, &orig); err != nil {
			t.Fatal(err)
		}
		if doc["type"] != orig["type"] {
			t.Errorf("%s: type %v, the source's %v", name, doc["type"], orig["type"])
		}
		defs, _ := doc["$defs"].(map[string]any)
		for _, r := range refs(doc) {
			key, ok := strings.CutPrefix(r, "#/$defs/")
			if !ok {
				t.Errorf("%s: $ref %q does not point into $defs", name, r)
				continue
			}
			if _, ok := defs[key]; !ok {
				t.Errorf("%s: $ref %q names no $defs key", name, r)
			}
		}
		for key, d := range defs {
			if m, ok := d.(map[string]any); ok {
				for _, k := range []string{"$schema", "$id"} {
					if _, ok := m[k]; ok {
						t.Errorf("%s: $defs/%s keeps %s", name, key, k)
					}
				}
			}
		}
		compileBundled(t, name)
	}
}

func TestBundledKeys(t *testing.T) {
	b, err := Bundled("wait.request")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"condition", "condition.text", "condition.list", "condition.string_match", "defs.app_name", "defs.pid", "defs.state"} {
		if _, ok := doc.Defs[key]; !ok {
			t.Errorf("wait.request: no $defs/%s; have %v", key, keys(doc.Defs))
		}
	}
	// The condition refers to itself through of, and its own definitions through the bundle's.
	of := doc.Defs["condition.list"]["properties"].(map[string]any)["of"].(map[string]any)
	if got := of["items"].(map[string]any)["$ref"]; got != "#/$defs/condition" {
		t.Errorf("condition.list of items: $ref %v", got)
	}
	if _, ok := doc.Defs["condition"]["$defs"]; ok {
		t.Error("the copied condition keeps its $defs")
	}
	if got := doc.Defs["condition"]["description"]; got == nil {
		t.Error("the copied condition lost its description")
	}

	// A defs fragment's local references go to the bundle's copies of defs.
	b, err = Bundled("wait.reply")
	if err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Defs map[string]map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(b, &reply); err != nil {
		t.Fatal(err)
	}
	el := reply.Defs["defs.element"]["properties"].(map[string]any)
	if got := el["role"].(map[string]any)["$ref"]; got != "#/$defs/defs.role" {
		t.Errorf("defs.element role: $ref %v", got)
	}
	if _, ok := reply.Defs["error.properties.error"]; !ok {
		t.Errorf("wait.reply: no $defs/error.properties.error; have %v", keys(reply.Defs))
	}

	// A document's own $defs keep their names.
	b, err = Bundled("lease.reply")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"$ref":"#/$defs/lease"`) || !strings.Contains(string(b), `"lease_event":`) {
		t.Errorf("lease.reply: its own $defs are not kept: %s", b)
	}

	// The condition bundled on its own refers to itself as #.
	b, err = Bundled("condition")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"$ref":"#"`) || strings.Contains(string(b), "urn:axbus:") {
		t.Errorf("condition: %s", b)
	}
	compileBundled(t, "condition")
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestBundledIsStableAndCached(t *testing.T) {
	a, err := Bundled("click.request")
	if err != nil {
		t.Fatal(err)
	}
	bundleMu.Lock()
	delete(bundleCache, "click.request")
	bundleMu.Unlock()
	b, err := Bundled("click.request")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("two bundles of click.request differ:\n%s\n%s", a, b)
	}
	b[0] = 'X' // the caller's copy
	c, _ := Bundled("click.request")
	if !bytes.Equal(a, c) {
		t.Fatal("changing a result changed the cache")
	}
	if _, err := Bundled("no.such"); err == nil {
		t.Fatal("Bundled(no.such): no error")
	}
}

// TestBundledValidatesLikeTheOriginal: the bundle, compiled on its own, gives every sample the
// verdict Validate gives with the original schemas.
func TestBundledValidatesLikeTheOriginal(t *testing.T) {
	const (
		app   = `{"name":"Notes","pid":501,"generation":1}`
		lease = `{"key":"input","what":"input","holder":"me","acquired":"2024-01-01T00:00:00Z","expires":"2024-01-01T00:00:10Z","ttl_ms":10000}`
	)
	samples := []struct {
		schema, doc string
		valid       bool
	}{
		{"inspect.request", `{"app":"Notes"}`, true},
		{"inspect.request", `{"pid":501,"window":"Main"}`, true},
		{"inspect.request", `{}`, false},
		{"inspect.request", `{"app":"Notes","colour":"red"}`, false},
		{"inspect.request", `{"pid":"501"}`, false},
		{"inspect.request", `{"pid":0}`, false},
		{"inspect.request", `{"app":""}`, false},
		{"apps.request", `{}`, true},
		{"apps.request", `[]`, false},
		{"click.request", `{"locator":"role=button,name=Save","app":"Notes"}`, true},
		{"click.request", `{"locator":"x"}`, false},
		{"click.request", `{"locator":"role=button,name=Save","app":"Notes","timeout_ms":2000}`, true},
		{"click.request", `{"locator":"role=button,name=Save"}`, false},
		{"click.request", `{}`, false},
		{"click.request", `{"target":"s_1a:e3"}`, true},
		{"click.request", `{"target":"s_1a:e3","app":""}`, false},
		{"click.request", `{"target":"s_1a:e3","expect":{"expr":"dialog"}}`, true},
		{"click.request", `{"target":"s_1a:e3","expect":{"condition":{"kind":"text","text":"Saved"}}}`, true},
		{"click.request", `{"target":"s_1a:e3","expect":{"condition":{"kind":"text"}}}`, false},
		{"click.request", `{"target":"s_1a:e3","expect":{}}`, false},
		{"wait.request", `{"expr":"text:\"Saved\"","app":"Notes"}`, true},
		{"wait.request", `{"condition":{"kind":"all","of":[{"kind":"text","text":{"op":"exact","value":"a"}},{"kind":"dialog"}]},"app":"Notes"}`, true},
		{"wait.request", `{"condition":{"kind":"all","of":[{"kind":"dialog"}]},"app":"Notes"}`, false},
		{"wait.request", `{"condition":{"kind":"any","of":[{"kind":"any","of":[{"kind":"text","text":"a"},{"kind":"window","title":{"op":"contains","value":"Save"}}]},{"kind":"dialog"}]}}`, true},
		{"wait.request", `{"condition":{"kind":"all","of":[{"kind":"any","of":[{"kind":"text","text":"a"},{"kind":"text"}]},{"kind":"dialog"}]}}`, false},
		{"wait.request", `{"condition":{"kind":"all","of":[{"kind":"any","of":[{"kind":"text","text":"a"},{"kind":"window","title":{"op":"near","value":"a"}}]},{"kind":"dialog"}]}}`, false},
		{"wait.request", `{"condition":{"kind":"text","text":""}}`, false},
		{"wait.request", `{"condition":{"kind":"text","text":{"op":"exact","value":" "}}}`, false},
		{"wait.request", `{"condition":{"kind":"text","text":{"op":"contains","value":" "}}}`, true},
		{"wait.request", `{"condition":{"kind":"text","text":{"op":"regex","value":"^Sav"}}}`, true},
		{"wait.request", `{"condition":{"kind":"text","text":{"op":"regex","value":"("}}}`, false},
		{"wait.request", `{"condition":{"kind":"state","role":"button","state":"focused"}}`, true},
		{"wait.request", `{"condition":{"kind":"state","role":"button","state":"bogus"}}`, false},
		{"wait.request", `{"condition":{"kind":"element","role":"button","states":["enabled"]}}`, true},
		{"wait.request", `{"condition":{"kind":"element","role":"button","colour":"red"}}`, false},
		{"wait.request", `{"condition":{"kind":"element","states":["nope"]}}`, false},
		{"wait.request", `{"condition":{"kind":"element","gone":true}}`, false},
		{"wait.request", `{"condition":{"kind":"value","target":"e3","value":"x"}}`, true},
		{"wait.request", `{"condition":{"kind":"value","target":"e3"}}`, false},
		{"wait.request", `{"expr":"dialog","condition":{"kind":"dialog"}}`, false},
		{"wait.request", `{"expr":"dialog","pid":0}`, false},
		{"lease.reply", `{"lease":` + lease + `}`, true},
		{"lease.reply", `{"leases":[]}`, true},
		{"lease.reply", `{"leases":[{"key":"x"}]}`, false},
		{"lease.reply", `{"lease":` + strings.Replace(lease, "2024-01-01T00:00:00Z", "yesterday", 1) + `}`, false},
		{"read.reply", `{"app":` + app + `,"window":{"id":"w1","title":"Main"},"text":"hi","lines":1,"bytes":2,"truncated":false,"elements":3}`, true},
		{"read.reply", `{"app":` + app + `,"window":{"id":"w1","title":"Main"},"text":"hi","lines":1,"bytes":2,"truncated":true,"truncation":["text_limit"],"elements":3}`, true},
		{"read.reply", `{"app":` + app + `,"window":{"id":"w1","title":"Main"},"text":"hi","lines":1,"bytes":2,"truncated":true,"truncation":["bogus"],"elements":3}`, false},
		{"read.reply", `{"app":{"name":"Notes","pid":501},"window":{"id":"w1","title":"Main"},"text":"hi","lines":1,"bytes":2,"truncated":false,"elements":3}`, false},
		{"read.reply", `{"app":` + app + `,"window":{"id":"w1","title":"Main"},"text":"hi","lines":1,"bytes":2,"truncated":false,"elements":9,"hidden_omitted":4}`, true},
		{"read.reply", `{"app":` + app + `,"window":{"id":"w1","title":"Main"},"text":"hi","lines":1,"bytes":2,"truncated":false,"elements":9,"hidden_omitted":-1}`, false},
		{"read.request", `{"app":"Notes","all":true}`, true},
		{"read.request", `{"scope":"s_ab12:e3","all":true}`, true},
		{"read.request", `{"app":"Notes","all":"yes"}`, false},
		{"wait.reply", `{"outcome":"timeout","condition":"dialog","elapsed_ms":5000}`, true},
		{"wait.reply", `{"outcome":"error","condition":"dialog","elapsed_ms":1,"error":{"code":"TIMEOUT","message":"m","suggestion":"s"}}`, true},
		{"wait.reply", `{"outcome":"error","condition":"dialog","elapsed_ms":1,"error":{"code":"NOPE","message":"m","suggestion":"s"}}`, false},
		{"click.reply", `{"action":"click","app":` + app + `,"done":true,"delivered":true,"trace":[]}`, true},
		{"click.reply", `{"action":"click","app":` + app + `,"done":true,"delivered":true,"trace":[],"expect":{"outcome":"met","condition":"dialog","elapsed_ms":3}}`, true},
		{"click.reply", `{"action":"click","app":` + app + `,"done":true,"delivered":true,"trace":[],"expect":{"outcome":"met"}}`, false},
		{"click.reply", `{"action":"click","app":` + app + `,"done":true,"delivered":true}`, false},
	}
	compiled := map[string]*jsonschema.Schema{}
	for _, s := range samples {
		bs, ok := compiled[s.schema]
		if !ok {
			bs = compileBundled(t, s.schema)
			compiled[s.schema] = bs
		}
		origErr := Validate(s.schema, []byte(s.doc))
		if (origErr == nil) != s.valid {
			t.Errorf("%s %s: the original says %v, the sample wants valid=%v", s.schema, s.doc, origErr, s.valid)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(s.doc))
		if err != nil {
			t.Fatalf("%s %s: %v", s.schema, s.doc, err)
		}
		bundleErr := bs.Validate(inst)
		if (bundleErr == nil) != (origErr == nil) {
			t.Errorf("%s %s: the original says %v, the bundle %v", s.schema, s.doc, origErr, bundleErr)
		}
	}
}
