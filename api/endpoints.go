package api

import (
	"slices"
	"time"

	"github.com/axbus/axbus/model"
)

// ServiceName is the micro service's name: `nats micro ls` lists it.
const ServiceName = "axbus"

// Version is the version of the API and the binary.
const Version = "0.1.0"

// Defaults and limits of the API, each said once.
const (
	// DefaultWaitTimeout is how long a wait or an expect waits when the request says nothing.
	DefaultWaitTimeout = 5 * time.Second
	// MaxWaitTimeout is the longest wait or expect a request may ask for.
	MaxWaitTimeout = 5 * time.Minute
	// ChainDeadline bounds one action's fallback chain; its expect has its own time after it.
	ChainDeadline = 10 * time.Second
	// ReplyTimeout is how long a client waits for a reply that has no deadline of its own.
	ReplyTimeout = 30 * time.Second
	// MaxInFlight bounds the requests the daemon handles at once, all identities together.
	// AdminReserve of them only admins (and the daemon's own requests) may take: agents and
	// monitors together never hold more than MaxInFlight-AdminReserve, however many they are,
	// so the owner always reaches status, agents and creds; an admin's request within the
	// reserve is never UNAVAILABLE.
	MaxInFlight  = 8192
	AdminReserve = 1024
	// MaxInFlightAdmin, MaxInFlightAgent and MaxInFlightMonitor bound one identity's requests
	// in flight, by its role (MaxInFlightOf): past it, its own requests get BUSY while everyone
	// else is served. While more identities hold requests than the shared slots
	// (MaxInFlight-AdminReserve) have room for at these limits, each is held to its fair share:
	// the shared slots divided by the identities holding some (FairShare).
	MaxInFlightAdmin   = 1024
	MaxInFlightAgent   = 512
	MaxInFlightMonitor = 256
	// RequestRate and RequestBurst pace each agent's and monitor's requests: past a burst of
	// RequestBurst, they start at most RequestRate a second, later ones waiting their turn
	// (within their deadline), so that a flood of cheap requests is held to its share of the
	// daemon's time. Admins' and the daemon's own requests are not paced.
	RequestRate  = 200
	RequestBurst = 200
	// MaxRequest is the largest request body accepted. The server's max payload is larger, so
	// an oversized request reaches the daemon and gets a clear error, not a closed connection.
	MaxRequest = 1 << 20
)

// MaxInFlightOf is the in-flight limit of one identity of role (MaxInFlightAdmin, ...); 0 for
// a role the daemon does not know.
func MaxInFlightOf(role string) int {
	switch role {
	case RoleAdmin:
		return MaxInFlightAdmin
	case RoleAgent:
		return MaxInFlightAgent
	case RoleMonitor:
		return MaxInFlightMonitor
	}
	return 0
}

// FairShare is one identity's share of the slots agents and monitors share
// (MaxInFlight-AdminReserve) while n identities hold some.
func FairShare(n int) int { return (MaxInFlight - AdminReserve) / max(n, 1) }

// Kind sorts the endpoints by what they may do: Observe reads the desktop's accessibility tree,
// Pixels its screen, Act changes it, Manage changes who may do what. Kind.May says which roles
// call which.
type Kind string

// The kinds of endpoints.
const (
	Observe Kind = "observe"
	Act     Kind = "act"
	Manage  Kind = "manage"

	// Pixels reads the screen (screenshots, and text recognised in them): it shows what no tree
	// exposes (canvases, images, apps without accessibility) and is the heaviest work, so it is
	// not a monitor's.
	Pixels Kind = "pixels"
)

// Endpoint describes one endpoint of the service: its subject is <prefix>.<host>.api.<Name>,
// its schemas "<Name>.request" and "<Name>.reply".
type Endpoint struct {
	Name        string
	Kind        Kind
	Description string
	// Timeout bounds the daemon's handler; the request's own deadline may be shorter.
	Timeout time.Duration
}

// Endpoints is the one table of the service's endpoints, in the order `nats micro info` lists
// them.
var Endpoints = []Endpoint{
	{"apps", Observe, "List the running apps that expose an accessibility tree.", 5 * time.Second},
	{"windows", Observe, "List an app's windows, dialogs and sheets.", 5 * time.Second},
	{"inspect", Observe, "Inspect a window: list what is on screen and keep the walk as a snapshot.", 20 * time.Second},
	{"read", Observe, "Read a window's or a scope's text in reading order; no snapshot, no input.", model.WholeBudget().Deadline + 2*time.Second},
	{"screenshot", Pixels, "A PNG of a window, a region or the display, secure fields painted over, scaled to its limits; with ocr, the text recognised in it.", 30 * time.Second},
	{"screenshot_part", Pixels, "One part of a screenshot's PNG (id and part from its reply), its bytes as they are.", 5 * time.Second},
	{"snapshot", Observe, "List a stored snapshot again, whole or the subtree of one element; no new walk.", time.Second},
	{"status", Observe, "The daemon's health: backend, event counters, snapshot store, client listener.", time.Second},
	{"wait", Observe, "Wait for a condition, by subscription: the reply comes the moment it holds, with a snapshot that holds the match.", MaxWaitTimeout + 30*time.Second},
	{"agents", Observe, "Who is connected: each identity's role, connections and since when, its last action and its leases.", time.Second},
	{"console", Manage, "A one-time URL of the daemon's web console: a page on loopback that watches the desktop as the monitor identity console, or acts as the agent identity console-agent.", 10 * time.Second},
	{"creds", Manage, "Add, list or remove a client identity (its name, role and nkey's public key); a removed one is disconnected at once.", 5 * time.Second},
	{"lease", Act, "Acquire, renew, release or list leases: an identity's exclusive hold on an app, a window or the host's physical input, ended by its TTL, its release or its holder's connection going; an acquire may wait for a lease to be free.", MaxLeaseWait + 10*time.Second},
	{"window", Act, "Move, resize, close, raise or minimize an app's window (op move with x and y, resize with w and h, close, raise: to the front with the focus, minimize), proven by reading its windows again.", 10 * time.Second},
	{"launch", Act, "Start an app (entry: a desktop entry or app; command: a program and its arguments, admin only) and answer once it is in the accessibility tree, by its registration event.", model.DefaultLaunchWait + 10*time.Second},
	{"quit", Act, "Quit an app as its user would (its windows closed), or with force at once; the answer comes once it has ended (app_terminated).", model.QuitWait + 10*time.Second},
	{"clipboard", Act, "Read (op get) or write (op set, text) the clipboard's text; text only, at most 200 KiB.", 5 * time.Second},
	{"web_accessibility", Act, "Claim (on) or release (off) an app's web accessibility (Chromium, Electron) for an agent; restored when the last agent releases it or after 10 idle minutes.", 5 * time.Second},
	{"record", Act, "Record a flow: start (the actions of an agent, or every one's; an admin may record a person's mouse and keyboard too) and stop, which answers the flow: steps with unique locators and the expects that prove them.", 5 * time.Second},
	{"replay", Act, "Replay a flow (vars for its ${name} parameters): each step's locator waited for until actionable, its action, its expect; the first failure stops the run with a report. Progress on flow subjects.", MaxReplay + 10*time.Second},
	action("click", "Click an element (press, confirm, open, ... as the platform's chain says); prove it with expect."),
	action("press", "Invoke a named action of an element (action: AXPress, activate, ...)."),
	action("set_value", "Set an element's value (value) directly."),
	action("type", "Type text (text) into an element, appended to its value."),
	action("focus", "Give an element the keyboard focus."),
	action("scroll_to", "Scroll an element into view."),
	action("expand", "Expand an element (a disclosure, a tree row)."),
	action("collapse", "Collapse an element."),
	action("select", "Select an element (a row, an item)."),
	action("toggle", "Toggle a checkbox or switch, exactly once."),
	action("check", "Check a checkbox (nothing when it is checked already)."),
	action("uncheck", "Uncheck a checkbox (nothing when it is unchecked already)."),
	action("key", "Send a key combination (keys: ctrl+s) to an app; physical input, so policy physical."),
}

// action is an action endpoint: the chain, then at most the longest expect.
func action(name, description string) Endpoint {
	return Endpoint{name, Act, description, ChainDeadline + MaxWaitTimeout + 30*time.Second}
}

// ownRequests are the act endpoints whose requests are not ActionRequest.
var ownRequests = []string{"web_accessibility", "lease", "window", "launch", "quit", "clipboard", "record", "replay"}

// Actions lists the action endpoints' names (ActionRequest's endpoints): the act endpoints but
// those with requests of their own.
var Actions = func() []string {
	var out []string
	for _, ep := range Endpoints {
		if ep.Kind == Act && !slices.Contains(ownRequests, ep.Name) {
			out = append(out, ep.Name)
		}
	}
	return out
}()

// EndpointNamed is the endpoint called name.
func EndpointNamed(name string) (Endpoint, bool) {
	for _, ep := range Endpoints {
		if ep.Name == name {
			return ep, true
		}
	}
	return Endpoint{}, false
}
