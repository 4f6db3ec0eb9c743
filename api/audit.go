package api

import (
	"time"

	"github.com/axbus/axbus/model"
)

// AuditRecordsPerIdentity bounds the action records the audit stream keeps of one identity:
// past it, that identity's oldest go (checked every AuditTrimEvery of its records), so no
// identity's actions evict another's records.
const (
	AuditRecordsPerIdentity = 10000
	AuditTrimEvery          = 500
)

// ActionRecord is the audit record of one call of an action endpoint, done or refused, as the
// daemon publishes it on <prefix>.<host>.act.<app>.<action>.<identity> (schema "act"), kept in
// the audit stream. It never carries what an action set, typed or keyed, not even its length: Given says
// only that the request had it.
type ActionRecord struct {
	Host string `json:"host"`
	// Boot is the daemon run's, as in event envelopes; Seq counts the run's records from 1.
	Boot string `json:"boot"`
	Seq  uint64 `json:"seq"`
	// Time is when the daemon began the action.
	Time time.Time `json:"time"`
	// Agent is who asked, as the server authenticated it.
	Agent  Identity `json:"agent"`
	Action string   `json:"action"`
	// Op is a managing action's operation: web_accessibility's on or off, a lease's.
	Op  string        `json:"op,omitempty"`
	App *model.AppRef `json:"app,omitempty"`
	// Target is the element acted on (or asked for, when the action was refused before it was
	// found again).
	Target *RecordTarget `json:"target,omitempty"`
	// Given names the request's inputs ("value", "text", "keys") without their content.
	Given  []string `json:"given,omitempty"`
	Policy string   `json:"policy,omitempty"`
	// Done, Delivered, Step and Mechanism are the action reply's; Error is the code of a refused or failed
	// action (its message may echo input, so it stays out).
	Done      bool       `json:"done"`
	Delivered bool       `json:"delivered,omitempty"`
	Step      string     `json:"step,omitempty"`
	Mechanism string     `json:"mechanism,omitempty"`
	Error     model.Code `json:"error,omitempty"`
	// Trace is the chain's steps, each with its result and time (not their messages, which may
	// echo input); Disposition what the app was seen to do.
	Trace       []RecordStep  `json:"trace,omitempty"`
	Disposition string        `json:"disposition,omitempty"`
	Expect      *RecordExpect `json:"expect,omitempty"`
	ElapsedMS   float64       `json:"elapsed_ms"`
}

// RecordStep is one step of an action's chain in its record.
type RecordStep struct {
	Step      string  `json:"step"`
	Result    string  `json:"result"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

// RecordTarget is an action's element in a record: its snapshot, id, role and name.
type RecordTarget struct {
	Snapshot string     `json:"snapshot"`
	Element  string     `json:"element"`
	Role     model.Role `json:"role,omitempty"`
	Name     string     `json:"name,omitempty"`
}

// RecordExpect is how an action's expect ended, and after how long.
type RecordExpect struct {
	Outcome   WaitOutcome `json:"outcome"`
	ElapsedMS float64     `json:"elapsed_ms"`
	// Trigger is what decided it: "initial", "recheck", or the type of the event that did.
	Trigger string `json:"trigger,omitempty"`
}
