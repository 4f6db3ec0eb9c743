package mcpserver

import "github.com/axbus/axbus/api"

// tool is one MCP tool: the endpoint it asks, what an agent is told of it and the arguments it
// takes.
type tool struct {
	name, endpoint, description string
	// readOnly tools only observe; destructive ones may lose data (a value replaced, a key
	// pressed); the others act without loss (a click, a focus).
	readOnly, destructive bool
	// op is the operation of its endpoint the tool stands for (a lease's, a window's, ...): the
	// tool sets it, an agent does not give it.
	op string
	// in names the tool's properties (space-separated): its own (own) or shared ones (props);
	// required those it cannot go without.
	in, required string
	own          map[string]prop
	// rule is what the schema cannot say, told when the daemon refuses the arguments.
	rule string
}

// Rules the schemas cannot say.
const (
	ruleElement = "Give target (e12 or SNAPSHOT:e12) or locator with app or pid, not both."
	ruleApp     = "Give app or pid."
	ruleWindow  = "Give app or pid (and window), or scope alone."
)

// tools is the table of tools, in the order they are listed.
var tools = []tool{
	{name: "list_apps", endpoint: "apps", readOnly: true, description: "The running apps with an accessibility tree: pid, name, toolkit."},
	{name: "list_windows", endpoint: "windows", readOnly: true, in: "app pid", rule: ruleApp,
		description: "An app's windows: id, title, role, bounds, focus."},
	{name: "inspect", endpoint: "inspect", readOnly: true, in: "app pid window scope find ocr", rule: ruleWindow,
		description: "List a window's elements on screen, one a line (id, role, name, value, states), as a snapshot whose ids the actions take.",
		own:         map[string]prop{"find": {"type": "string", "description": "A locator (role=checkbox,name~Dark): list only what it matches."}}},
	{name: "read_text", endpoint: "read", readOnly: true, in: "app pid window scope limit all", rule: ruleWindow,
		description: "A window's or subtree's text in reading order, content scrolled out of view included.",
		own: map[string]prop{
			"limit": {"type": "integer", "minimum": 1, "maximum": 98304, "description": "At most this many bytes (default 98304)."},
			"all":   {"type": "boolean", "description": "Read hidden elements too: closed menus, hidden pages."}}},
	{name: "wait_for", endpoint: "wait", readOnly: true, in: "condition app pid window scope timeout_ms recheck_ms listing", required: "condition",
		rule:        `Give condition (text:"Saved", dialog, or a locator).`,
		description: "Wait, by subscription, until a condition holds or a locator's element is there; not met in time is an error.",
		own: map[string]prop{
			"condition":  {"type": "string", "description": `A condition (text:"Saved", dialog:title~Save, element:role=button,name=OK gone) or a locator.`},
			"timeout_ms": {"type": "integer", "minimum": 1, "maximum": 300000, "description": "How long to wait (default 5000)."},
			"recheck_ms": {"type": "integer", "minimum": 100, "maximum": 300000, "description": "How often to re-read the app for changes it did not announce (default 1000)."},
			"listing":    {"type": "boolean", "description": "Also list the snapshot holding the match; its ids become the current ones."}}},
	{name: "click", endpoint: "click", in: actionProps, rule: ruleElement, description: "Click an element."},
	{name: "press", endpoint: "press", in: actionProps + " action", required: "action", rule: ruleElement,
		description: "Invoke one of an element's named actions.",
		own:         map[string]prop{"action": {"type": "string", "description": "The action's name (activate, AXShowMenu) or index."}}},
	{name: "set_value", endpoint: "set_value", destructive: true, in: actionProps + " value", required: "value", rule: ruleElement,
		description: "Replace an element's value: its text, or a number for a slider.",
		own:         map[string]prop{"value": {"type": "string", "description": "The new value."}}},
	{name: "type_text", endpoint: "type", destructive: true, in: actionProps + " text", required: "text", rule: ruleElement,
		description: "Type text at the end of an element's value.",
		own:         map[string]prop{"text": {"type": "string", "description": "The text to type."}}},
	{name: "press_key", endpoint: "key", destructive: true, in: actionProps + " keys", required: "keys", rule: "Give keys, and app or pid.",
		description: "Send a key combination to an app, or to an element focused first; keys are physical input: give policy physical.",
		own:         map[string]prop{"keys": {"type": "string", "description": "ctrl+s, Return, shift+Tab, ..."}}},
	{name: "focus", endpoint: "focus", in: actionProps, rule: ruleElement, description: "Give an element the keyboard focus."},
	{name: "scroll_to", endpoint: "scroll_to", in: actionProps, rule: ruleElement, description: "Scroll an element into view."},
	{name: "select", endpoint: "select", in: actionProps, rule: ruleElement, description: "Select an element: a row, an option, a tab."},
	{name: "toggle", endpoint: "toggle", in: actionProps, rule: ruleElement, description: "Toggle a check box, switch or toggle button."},
	{name: "check", endpoint: "check", in: actionProps, rule: ruleElement, description: "Check a check box (nothing if checked)."},
	{name: "uncheck", endpoint: "uncheck", in: actionProps, rule: ruleElement, description: "Uncheck a check box (nothing if unchecked)."},
	{name: "expand", endpoint: "expand", in: actionProps, rule: ruleElement, description: "Expand a tree row or combo box."},
	{name: "collapse", endpoint: "collapse", in: actionProps, rule: ruleElement, description: "Collapse a tree row or combo box."},
	{name: "screenshot", endpoint: "screenshot", readOnly: true, in: "app pid window region max_side ocr",
		rule:        "Give app or pid (and window), or region, or none of them for the whole display.",
		description: "A PNG of a window, a region or the display, secure fields painted over; the text says how pixels map to desktop points.",
		own: map[string]prop{
			"region": {"type": "object", "description": "An area of the display, global coordinates.", "additionalProperties": false,
				"required": []string{"x", "y", "w", "h"}, "properties": map[string]prop{
					"x": {"type": "number"}, "y": {"type": "number"}, "w": {"type": "number"}, "h": {"type": "number"}}},
			"max_side": {"type": "integer", "minimum": -1, "maximum": 16384, "description": "Longest side in pixels (default 1920; -1: full size)."}}},
	{name: "window_move", endpoint: "window", op: "move", in: "app pid window x y", required: "x y", rule: ruleApp,
		description: "Move an app's window's top-left corner to x, y.",
		own:         map[string]prop{"x": {"type": "number"}, "y": {"type": "number"}}},
	{name: "window_resize", endpoint: "window", op: "resize", in: "app pid window w h", required: "w h", rule: ruleApp,
		description: "Resize an app's window to w x h.",
		own:         map[string]prop{"w": {"type": "number", "minimum": 1}, "h": {"type": "number", "minimum": 1}}},
	{name: "window_raise", endpoint: "window", op: "raise", in: "app pid window", rule: ruleApp,
		description: "Bring an app's window to the front with the input focus, restored if minimized."},
	{name: "window_minimize", endpoint: "window", op: "minimize", in: "app pid window", rule: ruleApp, description: "Minimize an app's window."},
	{name: "window_close", endpoint: "window", op: "close", destructive: true, in: "app pid window", rule: ruleApp,
		description: "Close an app's window as its close button does (it may ask to save)."},
	{name: "launch_app", endpoint: "launch", in: "entry command timeout_ms", rule: "Give entry or command, not both.",
		description: "Start an app; answers once it is in the accessibility tree.",
		own: map[string]prop{
			"entry":      {"type": "string", "description": "A desktop entry's id or name (org.gnome.Calculator); macOS: a bundle id or app name."},
			"command":    {"type": "array", "items": prop{"type": "string"}, "description": "A program and its arguments (admins only)."},
			"timeout_ms": {"type": "integer", "minimum": 1, "maximum": 300000, "description": "How long it may take to register (default 30000)."}}},
	{name: "quit_app", endpoint: "quit", destructive: true, in: "app pid force timeout_ms", rule: ruleApp,
		description: "Quit an app as its user would (it may ask to save), or with force at once; answers once it has ended.",
		own: map[string]prop{
			"force":      {"type": "boolean", "description": "Kill it at once."},
			"timeout_ms": {"type": "integer", "minimum": 1, "maximum": 300000, "description": "How long it may take to end (default 5000)."}}},
	{name: "clipboard_get", endpoint: "clipboard", op: "get", description: "The clipboard's text."},
	{name: "clipboard_set", endpoint: "clipboard", op: "set", destructive: true, in: "text",
		description: "Put text on the clipboard (no text: empty it).",
		own:         map[string]prop{"text": {"type": "string", "description": "At most 200 KiB."}}},
	{name: "record_start", endpoint: "record", op: "start", in: "name",
		description: "Record this agent's actions from now on as a flow, replayable without a model; answers the recording's id.",
		own:         map[string]prop{"name": {"type": "string", "description": "The flow's name."}}},
	{name: "record_stop", endpoint: "record", op: "stop", in: "recording", required: "recording",
		description: "Stop a recording; answers its flow: steps with unique locators and the expects that prove them.",
		own:         map[string]prop{"recording": {"type": "string", "description": "The id record_start answered."}}},
	{name: "replay_flow", endpoint: "replay", destructive: true, in: "flow vars", required: "flow",
		description: "Replay a flow: each step waited for, acted and proven; the first failure stops it and says where, why, and what is there instead.",
		own: map[string]prop{
			"flow": {"type": "object", "description": "A flow as record_stop answered it (axbus schema flow)."},
			"vars": {"type": "object", "additionalProperties": prop{"type": "string"}, "description": "Values of the flow's ${name} parameters."}}},
	{name: "lease_acquire", endpoint: "lease", op: "acquire", in: "app pid window input ttl_ms wait_ms",
		rule:        "Give app or pid (window only with one of them), or input: true.",
		description: "Hold an app, one of its windows, or the physical input (input) for this agent alone: others' actions on it get LEASE_HELD.",
		own: map[string]prop{
			"input":   {"type": "boolean", "description": "The host's physical input (pointer and keys)."},
			"ttl_ms":  {"type": "integer", "minimum": 1000, "maximum": 600000, "description": "Its life from now (default 30000)."},
			"wait_ms": {"type": "integer", "minimum": 0, "maximum": 300000, "description": "How long to wait for a held one to be free (default 0)."}}},
	{name: "lease_release", endpoint: "lease", op: "release", in: "app pid window input key", rule: "Give app or pid, input: true, or key.",
		description: "Release a lease.",
		own: map[string]prop{
			"input": {"type": "boolean", "description": "The physical input's lease."},
			"key":   {"type": "string", "description": "The lease's key, as acquire named it."}}},
}

// ToolCount is how many tools the server lists: the table's and events (events.go).
func ToolCount() int { return len(tools) + 1 }

// endpointOf is the api endpoint a tool asks; tests hold the table to api.Endpoints.
func (t tool) endpointOf() (api.Endpoint, bool) {
	for _, ep := range api.Endpoints {
		if ep.Name == t.endpoint {
			return ep, true
		}
	}
	return api.Endpoint{}, false
}
