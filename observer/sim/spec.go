package sim

import (
	"encoding/json"
	"reflect"

	"github.com/axbus/axbus/model"
)

// DesktopSpec is a fixture: the apps of a simulated desktop. fixtures/desktops/README.md
// documents the format.
type DesktopSpec struct {
	// LatencyMS is the cost of one round trip to an app. A Read of a batch pays it once: it
	// models a backend that pipelines its calls.
	LatencyMS int       `json:"latency_ms,omitempty"`
	Apps      []AppSpec `json:"apps"`
}

// AppSpec is one app: its identity, its windows as node trees, and its behaviour.
type AppSpec struct {
	Name      string     `json:"name"`
	PID       int        `json:"pid"`
	BundleID  string     `json:"bundle_id,omitempty"`
	Windows   []NodeSpec `json:"windows"`
	Reactions []Reaction `json:"reactions,omitempty"`
	Scripts   []Script   `json:"scripts,omitempty"`
	Faults    []Fault    `json:"faults,omitempty"`
	// WebAccessibility says the app's web accessibility (AXManualAccessibility) is on at launch.
	WebAccessibility bool `json:"web_accessibility,omitempty"`
}

// NodeSpec is one element and its subtree.
type NodeSpec struct {
	// ID names the node within its app: reactions, scripts, faults and tests refer to it.
	ID          string `json:"id"`
	Role        string `json:"role"`
	Subrole     string `json:"subrole,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Help        string `json:"help,omitempty"`
	Identifier  string `json:"identifier,omitempty"`
	// Value is AXValue; a secure text field holds it but never reveals it.
	Value *Text `json:"value,omitempty"`
	// Min and Max bound a slider's value (AXMinValue, AXMaxValue).
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// Frame is [x, y, w, h] in global coordinates.
	Frame    []float64 `json:"frame,omitempty"`
	Enabled  *bool     `json:"enabled,omitempty"` // default true
	Focused  bool      `json:"focused,omitempty"`
	Selected bool      `json:"selected,omitempty"`
	Expanded *bool     `json:"expanded,omitempty"` // present: the node can expand
	Modal    bool      `json:"modal,omitempty"`
	// Actions and Settable default by role when absent; an empty list means none. They have
	// no omitempty so that an explicit empty list survives a round trip.
	Actions  []string   `json:"actions"`
	Settable []string   `json:"settable"`
	Children []NodeSpec `json:"children,omitempty"`
	// Repeat makes Count copies of this node in its place.
	Repeat *Repeat `json:"repeat,omitempty"`
}

// Repeat generates copies of a node: "%d" in the ids and texts of the node and its subtree
// becomes the copy's number, and each copy's frames move by (DX, DY) from the previous one.
type Repeat struct {
	Count int     `json:"count"`
	First *int    `json:"first,omitempty"` // the first number; default 1
	DX    float64 `json:"dx,omitempty"`
	DY    float64 `json:"dy,omitempty"`
}

// Reaction makes the app respond to an action performed on, or an attribute set on, an element.
type Reaction struct {
	On      Trigger  `json:"on"`
	AfterMS int      `json:"after_ms,omitempty"`
	Do      []Effect `json:"do"`
}

// Trigger names what a reaction responds to: Action or Set, on Element.
type Trigger struct {
	Element string `json:"element"`
	Action  string `json:"action,omitempty"`
	Set     string `json:"set,omitempty"`
}

// Effect is one change to an app's tree, with the notification macOS would post for it. Exactly
// one of Add, Remove, Set, Focus, Move and Notify is given. An effect whose element is gone by
// the time it runs does nothing, and adding a node whose id exists does nothing, so reactions
// may fire twice.
type Effect struct {
	// Add adds a subtree under To. Without To it opens a top-level window (AXWindowCreated);
	// an AXSheet under a window opens a sheet (AXSheetCreated); anything else posts AXCreated.
	Add *NodeSpec `json:"add,omitempty"`
	To  string    `json:"to,omitempty"`
	// Remove removes an element and its subtree (AXUIElementDestroyed); removing a window or a
	// sheet closes it.
	Remove string `json:"remove,omitempty"`
	// Set changes the fields below on an element. "{time}" in a title or value becomes the
	// clock's time of day (15:04:05).
	Set      string  `json:"set,omitempty"`
	Title    *string `json:"title,omitempty"`
	Value    *Text   `json:"value,omitempty"`
	Enabled  *bool   `json:"enabled,omitempty"`
	Selected *bool   `json:"selected,omitempty"`
	Expanded *bool   `json:"expanded,omitempty"`
	// Focus moves keyboard focus to an element (AXFocusedUIElementChanged).
	Focus string `json:"focus,omitempty"`
	// Move moves an element and its subtree by (DX, DY) (AXMoved, AXWindowMoved for a window).
	Move string  `json:"move,omitempty"`
	DX   float64 `json:"dx,omitempty"`
	DY   float64 `json:"dy,omitempty"`
	// Notify posts a notification on Element (the app when empty) without changing anything;
	// Text is an announcement's text.
	Notify  string `json:"notify,omitempty"`
	Element string `json:"element,omitempty"`
	Text    string `json:"text,omitempty"`
}

// Script is a named stream of timed steps. A script with LoopMS > 0 starts with its app and
// repeats every LoopMS; any script can be played once with Desktop.Play.
type Script struct {
	Name   string `json:"name"`
	LoopMS int    `json:"loop_ms,omitempty"`
	Steps  []Step `json:"steps"`
}

// Step is a script's effects at AtMS after the script starts.
type Step struct {
	AtMS int      `json:"at_ms,omitempty"`
	Do   []Effect `json:"do"`
}

// FaultKind is the kind of an injected fault.
type FaultKind string

// The fault kinds.
const (
	// FaultTransient: the next Count calls fail with TRANSIENT, as kAXErrorCannotComplete.
	FaultTransient FaultKind = "transient"
	// FaultLying: an action or attribute set takes effect but reports failure (Code).
	FaultLying FaultKind = "lying"
	// FaultNoop: an action or attribute set reports success but does nothing.
	FaultNoop FaultKind = "noop"
	// FaultSlow: every call to the app costs LatencyMS more.
	FaultSlow FaultKind = "slow"
	// FaultHang: calls to the app block until their context ends (APP_NOT_RESPONDING) or the
	// fault is cleared.
	FaultHang FaultKind = "hang"
	// FaultDie: the app exits AfterMS after the fault is set.
	FaultDie FaultKind = "die"
)

// Fault is an injected misbehaviour of one app.
type Fault struct {
	Kind FaultKind `json:"kind"`
	// Element and Action narrow transient, lying and no-op faults to calls on one element and
	// to one action or attribute name; empty matches any.
	Element string `json:"element,omitempty"`
	Action  string `json:"action,omitempty"`
	// Count is how many matching calls the fault affects; 0 means every call until cleared.
	Count int `json:"count,omitempty"`
	// Code is what a lying call reports: TRANSIENT (the default) or ACTION_FAILED.
	Code      model.Code `json:"code,omitempty"`
	LatencyMS int        `json:"latency_ms,omitempty"`
	AfterMS   int        `json:"after_ms,omitempty"`
}

// Text is a value as AX reports it, as text. In JSON it may be a string, a number (50, 0.5) or
// a boolean (true is "1", as a checkbox's value).
type Text string

// UnmarshalJSON reads a string, a number or a boolean.
func (t *Text) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case []any:
		return &json.UnmarshalTypeError{Value: "array", Type: reflect.TypeFor[Text]()}
	case map[string]any:
		return &json.UnmarshalTypeError{Value: "object", Type: reflect.TypeFor[Text]()}
	case string:
		*t = Text(v)
	case float64:
		*t = Text(formatNumber(v))
	case bool:
		*t = "0"
		if v {
			*t = "1"
		}
	}
	return nil
}
