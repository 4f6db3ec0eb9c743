package condition

import "slices"

// Kind says what a condition waits for. A leaf kind looks at elements or windows; all and any
// combine other conditions.
type Kind string

// The kinds of condition.
const (
	// KindText holds when some element shows the text (its Text, else Name, else Label, and for a
	// field one types into, its value); never a secure field. With Gone, when none does.
	KindText Kind = "text"
	// KindElement holds when some element matches every element field; with Gone, when none does.
	KindElement Kind = "element"
	// KindFocused holds when the focused element matches the element fields.
	KindFocused Kind = "focused"
	// KindWindow holds when a window (dialogs included) is open, whose title matches Title if given.
	KindWindow Kind = "window"
	// KindWindowGone holds when no window's title matches Title; without Title, when the wait's
	// window is gone (an action's expect borrows the window of the action's snapshot).
	KindWindowGone Kind = "window_gone"
	// KindDialog holds when a dialog, sheet or alert window is open, whose title matches Title if given.
	KindDialog Kind = "dialog"
	// KindValue holds when the element named by Target, or some element matching the element
	// fields, has a value matching Value.
	KindValue Kind = "value"
	// KindState holds when the element named by Target, or some element matching the element
	// fields, has State set (or, with Off, not set).
	KindState Kind = "state"
	// KindAll holds when every condition of Of holds.
	KindAll Kind = "all"
	// KindAny holds when some condition of Of holds.
	KindAny Kind = "any"
)

// kindOrder lists every kind, in the order the documentation gives them.
var kindOrder = []Kind{KindText, KindElement, KindFocused, KindWindow, KindWindowGone, KindDialog, KindValue, KindState, KindAll, KindAny}

// Bounds of a condition. They keep one wait's cost small: every term is evaluated against every
// element on every relevant event.
const (
	// MaxDepth is how deeply all and any may nest: a leaf alone has depth 1.
	MaxDepth = 8
	// MaxTerms is how many leaf conditions one condition may hold.
	MaxTerms = 32
	// MaxMatchLength is the longest string a match, role or title may give, in characters.
	MaxMatchLength = 1000
)

// Condition is a condition in its canonical form, which is also its JSON form (schema
// "condition", $id urn:axbus:condition). Which fields apply depends on Kind; Validate refuses
// the others. Build one by hand, decode it from JSON or parse the compact form; decoding and
// parsing validate it, a hand-built one needs Validate before it is used.
type Condition struct {
	Kind Kind `json:"kind"`

	// The element fields: what an element must be. They apply to element and focused, and to
	// value and state when no Target names the element (state without States and NotStates).
	// Role matches the normalised role ("button") or the platform's ("AXButton", "push
	// button"), case-insensitively. Name falls back to the label when the element has no name.
	Role        string       `json:"role,omitempty"`
	Name        *StringMatch `json:"name,omitempty"`
	Label       *StringMatch `json:"label,omitempty"`
	Description *StringMatch `json:"description,omitempty"`
	Identifier  *StringMatch `json:"identifier,omitempty"`
	// Value is the element's value; for KindValue, the value waited for (required).
	Value *StringMatch `json:"value,omitempty"`
	// Text is what the element shows, as KindText reads it; for KindText, the text (required).
	Text      *StringMatch `json:"text,omitempty"`
	States    []string     `json:"states,omitempty"`
	NotStates []string     `json:"not_states,omitempty"`

	// Target names the element of value and state by its id in the request's snapshot ("e12").
	// A value or state without Target or element fields names no element: in an action's expect
	// it tests the action's target (AimAt); a wait refuses it (CheckElementsNamed).
	Target string `json:"target,omitempty"`
	// State is the state a state condition tests (a name of model.StateNames).
	State string `json:"state,omitempty"`
	// Off asks a state condition for the state to be unset. JSON writes it as "on": false.
	Off bool `json:"-"`
	// Title matches a window's title (window, window_gone, dialog).
	Title *StringMatch `json:"title,omitempty"`
	// Gone turns text and element around: they hold when no element matches.
	Gone bool `json:"gone,omitempty"`
	// Of holds the conditions of all and any: 2 to MaxTerms of them.
	Of []*Condition `json:"of,omitempty"`

	// window is the id of the window a window_gone without Title waits to see go: the wait's own
	// window (set by the engine). An id, not its title: a dialog's title is often empty or shared.
	window string

	compiled *compiledStates // set by Validate
}

// isLeaf reports whether c looks at elements or windows itself, rather than combining others.
func (c *Condition) isLeaf() bool { return c.Kind != KindAll && c.Kind != KindAny }

// Leaves lists the leaf conditions of c, in the order they are written.
func (c *Condition) Leaves() []*Condition {
	if c.isLeaf() {
		return []*Condition{c}
	}
	var out []*Condition
	for _, sub := range c.Of {
		out = append(out, sub.Leaves()...)
	}
	return out
}

// NeedsElements reports whether c looks at elements (text, element, focused, value, state), so
// that the engine must read the windows' trees; window conditions need only the window list.
func (c *Condition) NeedsElements() bool {
	return slices.ContainsFunc(c.Leaves(), func(l *Condition) bool {
		return l.Kind != KindWindow && l.Kind != KindWindowGone && l.Kind != KindDialog
	})
}

// NeedsItsWindow reports whether c has a window_gone that names no window: it waits for the
// wait's own window to go.
func (c *Condition) NeedsItsWindow() bool {
	return slices.ContainsFunc(c.Leaves(), func(l *Condition) bool { return l.Kind == KindWindowGone && l.Title == nil })
}

// Targets lists the element ids (eN) c names, once each, in order. They belong to the
// request's snapshot, which the engine must resolve them in.
func (c *Condition) Targets() []string {
	var out []string
	for _, l := range c.Leaves() {
		if l.Target != "" && !slices.Contains(out, l.Target) {
			out = append(out, l.Target)
		}
	}
	return out
}

// isElementFree reports whether c is a value or state leaf that names no element, by id or by
// element fields: it tests the element an action acts on.
func (c *Condition) isElementFree() bool {
	switch c.Kind {
	case KindValue:
		return c.Target == "" && c.given()&elementFields&^fieldValue == 0
	case KindState:
		return c.Target == "" && c.given()&selectorFields == 0
	}
	return false
}

// ElementFree reports whether some leaf of c is a value or state that names no element
// (state:checked): one that tests the element an action acts on.
func (c *Condition) ElementFree() bool {
	return slices.ContainsFunc(c.Leaves(), (*Condition).isElementFree)
}

// AimAt names the element id (eN of the request's snapshot) as the element of every value and
// state leaf of c that names none: an action's expect aims them at the action's target.
func (c *Condition) AimAt(id string) {
	for _, l := range c.Leaves() {
		if l.isElementFree() {
			l.Target = id
		}
	}
}

// GoneWindow is the id of the window this window_gone leaf without Title waits to see go, as
// AimAtWindow set it ("": none yet).
func (c *Condition) GoneWindow() string { return c.window }

// AimAtWindow names the window id (a wait's own window) as the window that every window_gone
// leaf of c without Title waits to see go.
func (c *Condition) AimAtWindow(id string) {
	for _, l := range c.Leaves() {
		if l.Kind == KindWindowGone && l.Title == nil {
			l.window = id
		}
	}
}
