package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/schemas"
	"github.com/axbus/axbus/waiters/condition"
)

// listTools lists the tools of a server without a daemon, through the go-sdk's client in
// memory: what a client is sent.
func listTools(t *testing.T) []*mcp.Tool {
	t.Helper()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	session := connectInMemory(t, s)
	list, err := session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return list.Tools
}

// connectInMemory connects the go-sdk's client to s over in-memory transports.
func connectInMemory(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "axbus-test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = session.Close() })
	return session
}

// toolBudget is the most the tool list may cost an agent, in tokens (bytes/4) of its names,
// descriptions and input schemas.
const toolBudget = 12000

// schemaKeywords are the JSON Schema keywords every major model API takes in a tool's input
// schema; combinators, references and conditionals are refused by some, at the top or anywhere.
var schemaKeywords = []string{"type", "properties", "required", "description", "enum", "items", "minimum", "maximum", "additionalProperties"}

// topKeywords are those an input schema may hold at its top, the strictest rule published: an
// object of properties, with no anyOf, oneOf, allOf, not, $ref or enum there (one major API
// refuses the whole request when any tool's schema has one at its top).
var topKeywords = []string{"type", "properties", "required", "additionalProperties"}

// outputSchemaPays are the tools whose output schema pays for itself, and why: a client compiles
// every output schema when it lists the tools and checks every result against it, and no model
// API is sent one. events: its page holds events of every type, read as data by a program (the
// text's lines leave out most of their fields), which the schema describes; one schema, compiled
// within the listing's 35 ms by the TypeScript SDK. The others' structured content is the text's
// reply, which the text says.
var outputSchemaPays = map[string]bool{"events": true}

// grammarWords are words of the condition language's grammar: it is told once, in the server's
// instructions, never in a tool's description or schema (it cost ~12 KB a tool when it was).
var grammarWords = []string{"window_gone", "focused:", "state:e", "value:e", " >> ", "/regex/"}

// TestToolListIsSmallAndPlain (must-show 1): the tool list, as a client receives it, costs
// less than toolBudget tokens, and every input schema is an object of properties in the
// keywords every major model API takes.
func TestToolListIsSmallAndPlain(t *testing.T) {
	tools := listTools(t)
	total, outputs := 0, 0
	for _, tl := range tools {
		in, err := json.Marshal(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		total += len(tl.Name) + len(tl.Description) + len(in)
		if tl.OutputSchema != nil {
			outputs++
			if !outputSchemaPays[tl.Name] {
				t.Errorf("tool %s has an output schema that does not pay for itself", tl.Name)
			}
		}
		for _, w := range grammarWords {
			if strings.Contains(tl.Description+string(in), w) {
				t.Errorf("tool %s repeats the condition language (%q), told once in the instructions", tl.Name, w)
			}
		}
		var schema map[string]any
		if err := json.Unmarshal(in, &schema); err != nil {
			t.Fatal(err)
		}
		if schema["type"] != "object" {
			t.Errorf("tool %s: top-level type %v, want object", tl.Name, schema["type"])
		}
		for k := range schema {
			if !slices.Contains(topKeywords, k) {
				t.Errorf("tool %s: %s at the top of its input schema", tl.Name, k)
			}
		}
		if _, ok := schema["properties"].(map[string]any); !ok {
			t.Errorf("tool %s: no properties object at the top", tl.Name)
		}
		checkKeywords(t, tl.Name, "", schema)
		if expect, ok := schema["properties"].(map[string]any)["expect"].(map[string]any); ok && expect["type"] != "string" {
			t.Errorf("tool %s: expect is %v, not a condition's text", tl.Name, expect["type"])
		}
		for _, r := range asStrings(schema["required"]) {
			if _, ok := schema["properties"].(map[string]any)[r]; !ok {
				t.Errorf("tool %s: required %q is no property", tl.Name, r)
			}
		}
	}
	for _, w := range grammarWords {
		if !strings.Contains(instructions, w) {
			t.Errorf("the instructions do not tell the condition language's %q", w)
		}
	}
	t.Logf("tool list: %d tools, %d B of names, descriptions and input schemas = %d tokens (bytes/4; budget %d); %d output schemas; instructions %d B",
		len(tools), total, total/4, toolBudget, outputs, len(instructions))
	if total/4 >= toolBudget {
		t.Errorf("the tool list costs %d tokens, over the budget of %d", total/4, toolBudget)
	}
}

// checkKeywords checks a schema and those within it hold only schemaKeywords.
func checkKeywords(t *testing.T, tool, at string, schema map[string]any) {
	t.Helper()
	for k, v := range schema {
		if !slices.Contains(schemaKeywords, k) {
			t.Errorf("tool %s: %s/%s is no keyword every model API takes", tool, at, k)
		}
		switch k {
		case "properties":
			props, _ := v.(map[string]any)
			for name, p := range props {
				sub, ok := p.(map[string]any)
				if !ok {
					t.Errorf("tool %s: property %s/%s is no schema", tool, at, name)
					continue
				}
				checkKeywords(t, tool, at+"/"+name, sub)
			}
		case "items":
			if sub, ok := v.(map[string]any); ok {
				checkKeywords(t, tool, at+"/items", sub)
			}
		}
	}
}

func asStrings(v any) []string {
	var out []string
	for _, s := range asSlice(v) {
		out = append(out, s.(string))
	}
	return out
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

// mcpOnly are the arguments a tool handles itself, or gives the endpoint under another name.
var mcpOnly = map[string]string{"condition": "expr", "expect_timeout_ms": "", "find": "", "listing": ""}

// TestToolsAreEndpoints: every tool asks an endpoint that exists, every action endpoint is a
// tool, and each tool takes only what its endpoint's request holds (an op it sets itself).
func TestToolsAreEndpoints(t *testing.T) {
	asked := map[string]bool{}
	for _, tl := range tools {
		ep, ok := tl.endpointOf()
		if !ok {
			t.Fatalf("tool %s asks %s, which is no endpoint", tl.name, tl.endpoint)
		}
		asked[ep.Name] = true
		if tl.readOnly != (ep.Kind == api.Observe || ep.Kind == api.Pixels) {
			t.Errorf("tool %s: readOnly %v, but endpoint %s is %v", tl.name, tl.readOnly, ep.Name, ep.Kind)
		}
		raw, err := schemas.Bundled(tl.endpoint + ".request")
		if err != nil {
			t.Fatal(err)
		}
		var request struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(raw, &request); err != nil {
			t.Fatal(err)
		}
		for _, name := range strings.Fields(tl.in) {
			if _, shared := props[name]; !shared && tl.own[name] == nil {
				t.Errorf("tool %s: property %s has no schema", tl.name, name)
			}
			as, mine := mcpOnly[name]
			if !mine {
				as = name
			}
			if _, ok := request.Properties[as]; as != "" && !ok {
				t.Errorf("tool %s takes %s, which endpoint %s does not", tl.name, name, tl.endpoint)
			}
		}
		if _, ok := request.Properties["op"]; ok != (tl.op != "") {
			t.Errorf("tool %s: op %q, endpoint %s has op: %v", tl.name, tl.op, tl.endpoint, ok)
		}
	}
	for _, name := range api.Actions {
		if !asked[name] {
			t.Errorf("action %s has no tool", name)
		}
	}
}

func TestCutSaysSo(t *testing.T) {
	long := strings.Repeat("e1 button \"Save\"\n", 4000)
	got := cut(long)
	if len(got) > maxText+200 || !strings.Contains(got, "cut at 32 KiB") || !strings.HasSuffix(strings.SplitN(got, "\n… cut", 2)[0], "\"Save\"") {
		t.Fatalf("cut: %d bytes, ends %q", len(got), got[len(got)-120:])
	}
	if cut("short") != "short" {
		t.Fatal("a short text was cut")
	}
}

// TestInstructionsExamplesParse: every condition and locator the instructions give as an
// example is one the server takes, as the examples are written there.
func TestInstructionsExamplesParse(t *testing.T) {
	conditions := []string{`text:"Saved"`, `text="Exact"`, `text:/regex/`, `element:role=button,name~Save`,
		`element:role=checkbox,name="Dark mode",state=checked`, `window:title~Report`, `window_gone`, `dialog:title~Save`,
		`focused:role=text_field`, `value:e12=42`, `state:e7=checked`, `state:e7!=checked`,
		`dialog:title~Save >> role=button,name=OK`}
	for _, c := range conditions {
		if !strings.Contains(instructions, c) {
			t.Errorf("the instructions do not hold %s", c)
		}
		if condition.IsLocator(c) {
			if _, err := condition.ParseLocator(c); err != nil {
				t.Errorf("locator %s: %v", c, err)
			}
		} else if _, err := condition.ParseCompact(c); err != nil {
			t.Errorf("condition %s: %v", c, err)
		}
	}
	if _, err := condition.ParseLocator("role=button,name=Save"); err != nil || !strings.Contains(instructions, "role=button,name=Save") {
		t.Errorf("the locator of the instructions: %v", err)
	}
}
