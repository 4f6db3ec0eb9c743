package mcpserver

import (
	"encoding/json"
	"strings"
)

// prop is one input property's JSON Schema, in the subset every major model API takes: type,
// description, enum, items, properties, required, minimum, maximum, additionalProperties.
type prop map[string]any

// props are the properties tools share, each written once. A tool's own (tool.own) wins over
// one of these of the same name. What a schema of this subset cannot say (target or locator,
// not both) the daemon checks, and the tool's rule says when it refuses.
var props = map[string]prop{
	"app":     {"type": "string", "description": "An app's name, as list_apps gives it."},
	"pid":     {"type": "integer", "minimum": 1, "description": "An app's process id."},
	"window":  {"type": "string", "description": "A window's id or title (default: the focused one; a locator's: any)."},
	"target":  {"type": "string", "description": "The element: e12 (an id of the last listing this session got) or SNAPSHOT:e12."},
	"locator": {"type": "string", "description": "Instead of target: role=button,name=Save with app or pid; waits until it is actionable."},
	"expect":  {"type": "string", "description": `A condition that proves the effect, e.g. text:"Saved"; unmet is an error.`},
	"expect_timeout_ms": {"type": "integer", "minimum": 1, "maximum": 300000,
		"description": "How long expect may take to hold (default 5000)."},
	"timeout_ms": {"type": "integer", "minimum": 1, "maximum": 300000,
		"description": "How long a locator's element may take to be actionable (default 5000)."},
	"policy": {"type": "string", "enum": []string{"headless", "physical"},
		"description": "physical allows synthesised pointer and key input; headless (the default) sends none."},
	"scope": {"type": "string", "description": "An element (e12 or SNAPSHOT:e12): only its subtree; no app, pid or window then."},
	"ocr":   {"type": "boolean", "description": "Add the text recognised from the pixels (may be wrong)."},
}

// actionProps are what every action on an element takes.
const actionProps = "target locator app pid window timeout_ms policy expect expect_timeout_ms"

// inputSchema is a tool's input schema: an object of its properties, none other allowed.
func inputSchema(t tool) json.RawMessage {
	properties := map[string]prop{}
	for _, name := range strings.Fields(t.in) {
		p, ok := t.own[name]
		if !ok {
			p = props[name]
		}
		properties[name] = p
	}
	schema := map[string]any{"type": "object", "properties": properties, "additionalProperties": false}
	if t.required != "" {
		schema["required"] = strings.Fields(t.required)
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		panic(err) // maps of strings, numbers and lists: always encodable
	}
	return raw
}
