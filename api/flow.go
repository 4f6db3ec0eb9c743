package api

import (
	"time"

	"github.com/axbus/axbus/model"
)

// FlowVersion is the version of the flow format: a flow of another version is refused.
const FlowVersion = 1

// Flow is a run recorded to be replayed without a model: steps, each an action (or a wait) on an
// element named by a locator, proven by its expect. A value may name parameters given at replay,
// ${name}; a password typed while recording is only ever a parameter, ${secret:name}.
type Flow struct {
	Version int        `json:"version"`
	Name    string     `json:"name,omitempty"`
	Steps   []FlowStep `json:"steps"`
}

// FlowStep is one step of a flow.
type FlowStep struct {
	// Action is an action's endpoint name (click, type, set_value, key, toggle, ...) or "wait":
	// its Expect is then the condition waited for.
	Action string `json:"action"`
	// App names the app by name; Window narrows the locator to one of its windows.
	App    string `json:"app,omitempty"`
	Window string `json:"window,omitempty"`
	// Locator names the element (unique when recorded: role and name, an ancestor chain with
	// >> where needed, nth only as a last resort). A key step may have none: keys to the app.
	Locator string `json:"locator,omitempty"`
	// Value is set_value's value, type's text, key's keys, select's option; ${name} parameters.
	Value  string `json:"value,omitempty"`
	Policy string `json:"policy,omitempty"`
	// Expect proves the step (the compact condition form), ${name} parameters too.
	Expect string `json:"expect,omitempty"`
	// TimeoutMS bounds the locator's wait for an actionable element and the expect, each; 0: 5 s.
	TimeoutMS int `json:"timeout_ms,omitempty"`
}

// FlowWait is the action of a step that only waits.
const FlowWait = "wait"

// Bounds of flows and recordings.
const (
	// MaxFlowSteps bounds a flow's steps, a recording's included.
	MaxFlowSteps = 500
	// MaxReplay bounds a replay's run.
	MaxReplay = 10 * time.Minute
	// MaxRecordings bounds the recordings one identity has going at once.
	MaxRecordings = 4
)

// ReplayRequest runs a flow on the host: each step's locator waited for by subscription until
// actionable, its action, its expect; the first step that fails stops the run.
type ReplayRequest struct {
	Flow Flow              `json:"flow"`
	Vars map[string]string `json:"vars,omitempty"`
}

// ReplayReply is how a run went: Outcome is "met" (every step's expect met) or "failed"
// (Failure says where and why).
type ReplayReply struct {
	Run       string        `json:"run"`
	Outcome   string        `json:"outcome"`
	Steps     []StepOutcome `json:"steps"`
	Failure   *FlowFailure  `json:"failure,omitempty"`
	ElapsedMS float64       `json:"elapsed_ms"`
}

// The outcomes of a run and of its steps.
const (
	FlowMet    = "met"
	FlowFailed = "failed"
)

// StepOutcome is one step as it ran.
type StepOutcome struct {
	Step        int     `json:"step"` // from 1
	Action      string  `json:"action"`
	Outcome     string  `json:"outcome"`
	Disposition string  `json:"disposition,omitempty"`
	ElapsedMS   float64 `json:"elapsed_ms"`
}

// FlowFailure is the step a run stopped at: its locator, the error (the last actionability check,
// or the expect's outcome), the elements most like the one it looked for, and a screenshot of
// the app's window then (screenshot_part fetches it, as a screenshot's parts).
type FlowFailure struct {
	Step       int              `json:"step"`
	Action     string           `json:"action"`
	Locator    string           `json:"locator,omitempty"`
	Error      *model.Error     `json:"error"`
	Expect     *WaitResult      `json:"expect,omitempty"`
	Candidates []model.Element  `json:"candidates,omitempty"`
	Screenshot *ScreenshotReply `json:"screenshot,omitempty"`
}

// RecordRequest starts or stops a recording. Start records the actions of Agent (one identity's
// or, empty, every one's) and, with Person, what a person does with the mouse and keyboard; stop
// ends the recording and returns its flow.
type RecordRequest struct {
	Op        string `json:"op"` // start, stop
	Agent     string `json:"agent,omitempty"`
	Person    bool   `json:"person,omitempty"`
	Recording string `json:"recording,omitempty"` // stop: the id start gave
	Name      string `json:"name,omitempty"`      // the flow's
}

// RecordReply is a recording's id (start) or its flow (stop).
type RecordReply struct {
	Recording string `json:"recording"`
	Flow      *Flow  `json:"flow,omitempty"`
}
