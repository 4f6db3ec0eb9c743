package api

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"
)

// WaitRequest asks to wait for a condition (package waiters has the engine and the language).
type WaitRequest struct {
	// Condition is the canonical JSON form; Expr the compact form ("text:\"Saved\""). One of them.
	Condition json.RawMessage `json:"condition,omitempty"`
	Expr      string          `json:"expr,omitempty"`
	AppTarget
	Window    string `json:"window,omitempty"`
	Scope     string `json:"scope,omitempty"`
	Snapshot  string `json:"snapshot,omitempty"`
	TimeoutMS int    `json:"timeout_ms,omitempty"`
	RecheckMS int    `json:"recheck_ms,omitempty"`
}

// WaitOutcome is how a wait ended.
type WaitOutcome string

// The outcomes of a wait.
const (
	WaitMet     WaitOutcome = "met"
	WaitTimeout WaitOutcome = "timeout"
	WaitAppGone WaitOutcome = "app_gone"
	WaitError   WaitOutcome = "error"
)

// WaitResult is how a wait ended and, when met, the evidence.
type WaitResult struct {
	Outcome   WaitOutcome `json:"outcome"`
	Condition string      `json:"condition"`
	ElapsedMS float64     `json:"elapsed_ms"`
	// Trigger says what made the condition hold: the first evaluation, an event, a re-read.
	Trigger *WaitTrigger `json:"trigger,omitempty"`
	// Match is the element that made the condition hold, as the snapshot lists it.
	Match *model.Element `json:"match,omitempty"`
	// Window is the window that made a window condition hold, or the window of the match.
	Window *model.WindowRef `json:"window,omitempty"`
	App    *model.AppRef    `json:"app,omitempty"`
	// Snapshot holds the match; its ids are actionable. A match past the unscoped budget is
	// listed from its listing root, which the inspection's Scope names. A client decodes it
	// on first use (Listing.Inspection).
	Snapshot *Listing     `json:"snapshot,omitempty"`
	Error    *model.Error `json:"error,omitempty"`
	// Limits, on a wait that was not met, are the windows whose copy a limit cut short or that
	// were still being read: what the wait could not see.
	Limits []WaitLimit `json:"limits,omitempty"`
}

// WaitLimit is what kept a wait from seeing a whole window.
type WaitLimit struct {
	Window model.WindowRef `json:"window"`
	// Cut names the limits of Budget that cut the window's copy short.
	Cut []model.Truncation `json:"cut,omitempty"`
	// Elements is how many elements the copy holds (none yet while Reading).
	Elements int          `json:"elements"`
	Budget   model.Budget `json:"budget"`
	// Reading is set when the wait ended before the window was read whole once.
	Reading bool `json:"reading,omitempty"`
}

// WaitTrigger is what made a condition hold.
type WaitTrigger struct {
	// Kind is "initial" (it held when the wait began), "event" or "recheck".
	Kind  string          `json:"kind"`
	Event model.EventType `json:"event,omitempty"`
	Raw   string          `json:"raw,omitempty"`
}

// Armed is the interim reply a wait sends once it listens, to a requester that asked for it
// with the HeaderInterim header.
type Armed struct {
	Armed bool `json:"armed"`
}

// Encode writes r as JSON, the listing last and with the inspection's own encoder, and returns
// where the listing lies in it ("offset,length", the HeaderListing value; "" without a
// listing). It is what the daemon sends: through Listing.MarshalJSON, encoding/json would scan
// the listing, most of the reply, once more to compact it.
func (r *WaitResult) Encode() (data []byte, listing string, err error) {
	head := *r
	head.Snapshot = nil
	b, err := json.Marshal(&head)
	if err != nil || r.Snapshot == nil {
		return b, "", err
	}
	b = append(b[:len(b)-1], `,"snapshot":`...) // the head's closing brace goes after the listing
	start := len(b)
	if b, err = r.Snapshot.AppendJSON(b); err != nil {
		return nil, "", err
	}
	return append(b, '}'), strconv.Itoa(start) + "," + strconv.Itoa(len(b)-start), nil
}

// DecodeWaitResult decodes a wait's reply, the listing kept undecoded when listing (the
// HeaderListing value) says where it lies; a reply without one, or with one that does not fit
// the body, is decoded whole.
func DecodeWaitResult(data []byte, listing string, r *WaitResult) error {
	if off, n, ok := listingSpan(data, listing); ok {
		head := make([]byte, 0, len(data)-n+len("null"))
		head = append(append(append(head, data[:off]...), "null"...), data[off+n:]...)
		if json.Unmarshal(head, r) == nil {
			r.Snapshot = RawListing(data[off : off+n : off+n]) // the body's own bytes, never reused
			return nil
		}
		*r = WaitResult{}
	}
	return json.Unmarshal(data, r)
}

// listingSpan reads a HeaderListing value, checked against the body.
func listingSpan(data []byte, listing string) (off, n int, ok bool) {
	a, b, found := strings.Cut(listing, ",")
	off, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !found || err1 != nil || err2 != nil || off <= 0 || n <= 0 || off > len(data)-n {
		return 0, 0, false
	}
	return off, n, true
}
