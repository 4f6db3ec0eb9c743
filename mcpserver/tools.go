package mcpserver

import "github.com/axbus/axbus/api"

// tool is one MCP tool: the endpoint it asks, and what an agent is told of it.
type tool struct {
	name, endpoint, description string
	// readOnly tools only observe; destructive ones may lose data (a value replaced, a key
	// pressed); the others act without loss (a click, a focus).
	readOnly, destructive bool
	// op is the operation of its endpoint the tool stands for (a lease's, a window's, ...).
	op string
}

// actionHelp is what every action tool shares.
const actionHelp = " The element is target (SNAPSHOT:ELEMENT from inspect or a wait) or locator " +
	"(role=button,name=Save with app; the action waits until it is actionable, and for an app named by name to start). expect is a condition " +
	"checked after the action, the proof of its effect: the result says whether it was met."

// tools is the table of tools, in the order they are listed.
var tools = []tool{
	{name: "list_apps", endpoint: "apps", readOnly: true, description: "The running apps with an accessibility tree: pid, name, toolkit."},
	{name: "list_windows", endpoint: "windows", readOnly: true, description: "An app's windows (app or pid): id, title, role, bounds, focus."},
	{name: "inspect", endpoint: "inspect", readOnly: true, description: "A snapshot of a window (default the focused one) or of one element's subtree (scope): " +
		"one element a line (id, role, name, value, states), within budgets; off-screen elements are counted, not listed. Ids are SNAPSHOT:ELEMENT for actions."},
	{name: "read_text", endpoint: "read", readOnly: true, description: "The text of a window or subtree in reading order, scrolled-out content included, " +
		"hidden elements (closed menus, hidden pages) left out unless all: true (secure fields never)."},
	{name: "wait_for", endpoint: "wait", readOnly: true, description: "Wait, by subscription rather than polling, until a condition holds (text:\"Saved\", dialog, " +
		"element:role=button,name~Save, window_gone, ...; or a locator): met with a snapshot holding the match, or timeout. " +
		"An app named by name (app) that is not running yet is waited for; a timeout without it says APP_NOT_FOUND. inspect, read_text and list_windows fail at once with APP_NOT_FOUND."},
	{name: "click", endpoint: "click", description: "Click an element." + actionHelp},
	{name: "press", endpoint: "press", description: "Invoke one of an element's named actions (action: activate, AXShowMenu, or its index)." + actionHelp},
	{name: "set_value", endpoint: "set_value", destructive: true, description: "Replace an element's value (text, or a number for a slider)." + actionHelp},
	{name: "type_text", endpoint: "type", destructive: true, description: "Type text at the end of an element's value." + actionHelp},
	{name: "press_key", endpoint: "key", destructive: true, description: "Send a key combination to an app (keys: ctrl+s, Return); key input is physical: policy physical."},
	{name: "focus", endpoint: "focus", description: "Give an element keyboard focus." + actionHelp},
	{name: "scroll_to", endpoint: "scroll_to", description: "Scroll an element into view." + actionHelp},
	{name: "select", endpoint: "select", description: "Select an element (a row, an option, a tab)." + actionHelp},
	{name: "toggle", endpoint: "toggle", description: "Toggle an element (a check box, a switch, a toggle button)." + actionHelp},
	{name: "check", endpoint: "check", description: "Check a check box (nothing when it is checked already)." + actionHelp},
	{name: "uncheck", endpoint: "uncheck", description: "Uncheck a check box (nothing when it is unchecked already)." + actionHelp},
	{name: "expand", endpoint: "expand", description: "Expand an element (a tree row, a combo box)." + actionHelp},
	{name: "collapse", endpoint: "collapse", description: "Collapse an element." + actionHelp},
	{name: "screenshot", endpoint: "screenshot", readOnly: true, description: "A PNG of a window (app or pid, window), a region (global x, y, w, h) or the display, " +
		"returned as an image; secure fields painted over, scaled to at most 1920 px and 2 MiB. A pixel (px, py) is the desktop point bounds.x + px/scale, bounds.y + py/scale. " +
		"ocr: true adds the text recognised from its pixels (lines with boxes as fractions of the image), for windows without an accessibility tree."},
	{name: "window_move", endpoint: "window", op: "move", description: "Move an app's window (default the focused one) so that its top-left corner is at global x, y; proven by reading its windows again."},
	{name: "window_resize", endpoint: "window", op: "resize", description: "Resize an app's window to w x h; proven by reading its windows again."},
	{name: "window_raise", endpoint: "window", op: "raise", description: "Bring an app's window to the front, restored if minimized, with the input focus (activating the app)."},
	{name: "window_minimize", endpoint: "window", op: "minimize", description: "Minimize (iconify) an app's window."},
	{name: "window_close", endpoint: "window", op: "close", destructive: true, description: "Close an app's window as its close button does (the app may ask to save, or quit)."},
	{name: "launch_app", endpoint: "launch", description: "Start an app by its desktop entry or app name (entry: org.gnome.Calculator, or its Name; macOS: a bundle id), " +
		"or a program and its arguments (command, admins only); answers once it is in the accessibility tree."},
	{name: "quit_app", endpoint: "quit", destructive: true, description: "Quit an app (app or pid) as its user would (its windows closed; it may ask to save), or with force at once; answers once it has ended."},
	{name: "clipboard_get", endpoint: "clipboard", op: "get", description: "The clipboard's text."},
	{name: "clipboard_set", endpoint: "clipboard", op: "set", destructive: true, description: "Put text on the clipboard (no text: empty it); text only, at most 200 KiB."},
	{name: "lease_acquire", endpoint: "lease", op: "acquire", description: "Take an exclusive lease on an app (app or pid), one of its windows, or the host's physical input (input): " +
		"while held, other agents' actions on it are refused with LEASE_HELD. wait_ms waits for a held one to be free."},
	{name: "lease_release", endpoint: "lease", op: "release", description: "Release a lease (by app, pid, window, input or key)."},
}

// endpointOf is the api endpoint a tool asks; tests hold the table to api.Endpoints.
func (t tool) endpointOf() (api.Endpoint, bool) {
	for _, ep := range api.Endpoints {
		if ep.Name == t.endpoint {
			return ep, true
		}
	}
	return api.Endpoint{}, false
}
