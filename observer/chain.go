package observer

import (
	"context"

	"github.com/axbus/axbus/model"
)

// An action (click, toggle, set_value, ...) is done through a chain: an ordered list of steps a
// backend declares as data, tried one after the other until one works. The executor (package
// commands) walks a chain with retries, deadlines and a trace; the steps are the backend's own
// primitives (Perform, SetAttribute, Input).

// StepKind is what a step does.
type StepKind string

// The kinds of step.
const (
	StepPerform     StepKind = "perform"      // Perform(Action)
	StepSetAttr     StepKind = "set_attr"     // SetAttribute(Attr, Value or the request's value)
	StepWithFocus   StepKind = "with_focus"   // SetAttribute(Attr, Value) to focus the element, then Inner
	StepOnChildren  StepKind = "on_children"  // Inner on each of the first Limit children until one works
	StepOnAncestors StepKind = "on_ancestors" // Inner on each of the first Limit ancestors until one works
	StepCustom      StepKind = "custom"       // Run, for what data cannot say; Label names it in traces
	StepPhysical    StepKind = "physical"     // physical input (Input); only with the physical policy
)

// Dynamic stands for the request's value in a set_attr step (the text of set_value or type).
const Dynamic = "\x00dynamic"

// Step is one way to do an action.
type Step struct {
	Kind   StepKind
	Action string // perform: the platform's action name
	Attr   string // set_attr: the platform's attribute name
	// Value is what set_attr sets: a string, a float64, a bool, or Dynamic.
	Value any
	Inner *Step
	Limit int
	Label string
	// Run is a custom step, or a physical step of several inputs in a row. It gets the element
	// and the request's value.
	Run func(ctx context.Context, b Backend, target StepTarget) error
	// Input is the physical input of a physical step (the kind, with the button or keys); the
	// executor fills in the element's centre, the request's text and the app.
	Input Input
}

// StepTarget is what a step acts on.
type StepTarget struct {
	Ref    model.NodeRef
	Node   model.Node // as read just before the chain ran
	App    model.App
	Value  string // the request's value (set_value, type), or ""
	Parent model.NodeRef
}

// Chain is how one action is done on one platform.
type Chain struct {
	Steps []Step
	// Suggestion is what a caller is told when every step failed.
	Suggestion string
	// Stateful actions (toggle) change a state a retry would change back: before a retry the
	// executor reads the state again and does not retry when it already changed.
	Stateful bool
	// Proof, when set, is the state the element must show after a step "worked", else the
	// executor takes the step for failed and tries the next: a toolkit may accept a call and do
	// nothing (GTK4's GrabFocus).
	Proof model.States
	// ProofText: after a step "worked" the element's value must hold the request's text (set_value:
	// be it, or the same number; type: end with it), else the step failed: Firefox ESR answers
	// EditableText's SetTextContents true and changes nothing. A secure field, whose value is
	// never read, is taken at its word.
	ProofText bool
}

// Chains are a platform's chains by action name ("click", "toggle", ...).
type Chains map[string]Chain

// Name names a step in traces: "perform AXPress", "set_attr AXValue", "on_children(perform AXPress)".
func (s Step) Name() string {
	switch s.Kind {
	case StepPerform:
		return "perform " + s.Action
	case StepSetAttr:
		return "set_attr " + s.Attr
	case StepWithFocus, StepOnChildren, StepOnAncestors:
		if s.Inner != nil {
			return string(s.Kind) + "(" + s.Inner.Name() + ")"
		}
	case StepCustom:
		return "custom " + s.Label
	case StepPhysical:
		if s.Label != "" {
			return "physical " + s.Label
		}
		return "physical " + string(s.Input.Kind)
	}
	return string(s.Kind)
}
