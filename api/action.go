package api

import "github.com/axbus/axbus/model"

// ActionRequest asks for one action on an element of a snapshot (Target), or, for key, on an app.
type ActionRequest struct {
	// Target is SNAPSHOT:ELEMENT, e.g. s_1a2b3c4d5e6f:e12.
	Target string `json:"target,omitempty"`
	// Locator names the element instead of Target, in the element form of conditions
	// (role=button,name=Save), optionally within another element or window
	// (dialog:title~Save >> role=button,name=OK), with nth=N for the N-th match in tree order.
	// The action waits, by subscription, until exactly one element matches and is actionable.
	Locator string `json:"locator,omitempty"`
	// AppTarget names the app of a key action or of a locator (a target's snapshot names it
	// otherwise).
	AppTarget
	// Window narrows a locator to one window of the app (id or title).
	Window string `json:"window,omitempty"`
	// TimeoutMS bounds the wait for a locator's element to become actionable; 0 means 5 s.
	TimeoutMS int `json:"timeout_ms,omitempty"`
	// Action is press's named action (AXPress, "activate").
	Action string `json:"action,omitempty"`
	// Value is set_value's value; Text is type's text; Keys is key's combination ("ctrl+s").
	Value string `json:"value,omitempty"`
	Text  string `json:"text,omitempty"`
	Keys  string `json:"keys,omitempty"`
	// Policy "physical" allows physical input (pointer, keyboard synthesis); the default,
	// "headless", never sends any.
	Policy string `json:"policy,omitempty"`
	// Expect is checked after the action: a condition in the language of waits. Its missing
	// app and window come from the target's snapshot. It is subscribed before the action is sent.
	Expect *WaitRequest `json:"expect,omitempty"`
}

// Policies of physical input.
const (
	PolicyHeadless = "headless"
	PolicyPhysical = "physical"
)

// ActionReply is what an action did and the evidence of its effect.
type ActionReply struct {
	// Agent is who asked, as the server authenticated it.
	Agent  *Identity    `json:"agent,omitempty"`
	Action string       `json:"action"`
	App    model.AppRef `json:"app"`
	// Target is the element acted on; Recovered says it was found again, moved, rather than
	// where the snapshot saw it.
	Target *ActionTarget `json:"target,omitempty"`
	// Done says a step reported success; Step names it. A step's own report may lie: Expect is
	// the proof.
	Done bool   `json:"done"`
	Step string `json:"step,omitempty"`
	// Delivered says whether input reached the app, and Mechanism by which means:
	// "accessibility" (an accessibility call) or "physical" (synthesised pointer or keys).
	Delivered bool   `json:"delivered"`
	Mechanism string `json:"mechanism,omitempty"`
	// Trace lists every step tried: what, the result, the time.
	Trace []TraceStep `json:"trace"`
	// PostState is the element's value and states read after the action, where it makes sense.
	PostState *PostState `json:"post_state,omitempty"`
	// Expect is the outcome of the expect condition, with its evidence.
	Expect *WaitResult `json:"expect,omitempty"`
	// Disposition says what the app was seen to do (EffectConfirmed, EffectNoneSeen,
	// EffectUnverifiable) and Effects what changed, with or without an expect.
	Disposition string   `json:"disposition,omitempty"`
	Effects     []Effect `json:"effects,omitempty"`
}

// ActionTarget is the element an action resolved its target to.
type ActionTarget struct {
	Snapshot  string      `json:"snapshot"`
	Element   string      `json:"element"`
	Role      model.Role  `json:"role"`
	Name      string      `json:"name,omitempty"`
	Bounds    *model.Rect `json:"bounds,omitempty"`
	Recovered bool        `json:"recovered"`
	// MovedBy is how far (in points or pixels) the element moved since the snapshot.
	MovedBy float64 `json:"moved_by,omitempty"`
	// Locator is the locator the element was found by; WaitedMS how long it took to become
	// actionable; Snapshot holds it.
	Locator  string   `json:"locator,omitempty"`
	WaitedMS *float64 `json:"waited_ms,omitempty"`
}

// TraceStep is one step of an action's chain as it was tried.
type TraceStep struct {
	Step      string  `json:"step"`
	Result    string  `json:"result"` // ok, no_effect, skipped, or an error code
	Message   string  `json:"message,omitempty"`
	ElapsedMS float64 `json:"elapsed_ms"`
	Retried   bool    `json:"retried,omitempty"`
}

// PostState is an element's value and states after an action.
type PostState struct {
	Value  *string      `json:"value,omitempty"`
	States model.States `json:"states"`
}

// Candidate is one of the elements a locator matched when it must match one (AMBIGUOUS_TARGET):
// nth=Nth picks it.
type Candidate struct {
	Nth    int         `json:"nth"`
	Role   model.Role  `json:"role"`
	Name   string      `json:"name,omitempty"`
	Bounds *model.Rect `json:"bounds,omitempty"`
}
