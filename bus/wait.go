package bus

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/axbus/axbus/observer"
	"github.com/nats-io/nats.go"
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
	Match *observer.Element `json:"match,omitempty"`
	// Window is the window that made a window condition hold, or the window of the match.
	Window *observer.WindowRef `json:"window,omitempty"`
	App    *observer.AppRef    `json:"app,omitempty"`
	// Snapshot holds the match; its ids are actionable. A match past the unscoped budget is
	// listed from its listing root, which the inspection's Scope names. A client decodes it
	// on first use (Listing.Inspection).
	Snapshot *Listing        `json:"snapshot,omitempty"`
	Error    *observer.Error `json:"error,omitempty"`
	// Limits, on a wait that was not met, are the windows whose copy a limit cut short or that
	// were still being read: what the wait could not see.
	Limits []WaitLimit `json:"limits,omitempty"`
}

// WaitLimit is what kept a wait from seeing a whole window.
type WaitLimit struct {
	Window observer.WindowRef `json:"window"`
	// Cut names the limits of Budget that cut the window's copy short.
	Cut []observer.Truncation `json:"cut,omitempty"`
	// Elements is how many elements the copy holds (none yet while Reading).
	Elements int             `json:"elements"`
	Budget   observer.Budget `json:"budget"`
	// Reading is set when the wait ended before the window was read whole once.
	Reading bool `json:"reading,omitempty"`
}

// Encode writes r as JSON, the listing last and with the inspection's own encoder, and says in
// the HeaderListing header where the listing lies. It is what the daemon sends: through
// Listing.MarshalJSON, encoding/json would scan the listing, most of the reply, once more to
// compact it.
func (r *WaitResult) Encode() (*Encoded, error) {
	head := *r
	head.Snapshot = nil
	b, err := json.Marshal(&head)
	if err != nil || r.Snapshot == nil {
		return &Encoded{Data: b}, err
	}
	b = append(b[:len(b)-1], `,"snapshot":`...) // the head's closing brace goes after the listing
	start := len(b)
	if b, err = r.Snapshot.appendJSON(b); err != nil {
		return nil, err
	}
	span := strconv.Itoa(start) + "," + strconv.Itoa(len(b)-start)
	return &Encoded{Data: append(b, '}'), Header: nats.Header{HeaderListing: []string{span}}}, nil
}

// HeaderListing says where a wait reply's listing lies in its body ("offset,length"): a client
// then decodes the outcome and the match without scanning the listing, and keeps the listing's
// bytes for later. A reply without it, or with one that does not fit, is decoded whole.
const HeaderListing = "Axbus-Listing"

// decodeWaitReply decodes a wait's reply, the listing kept undecoded.
func decodeWaitReply(m *nats.Msg, r *WaitResult) error {
	if off, n, ok := listingSpan(m); ok {
		head := make([]byte, 0, len(m.Data)-n+len("null"))
		head = append(append(append(head, m.Data[:off]...), "null"...), m.Data[off+n:]...)
		if json.Unmarshal(head, r) == nil {
			r.Snapshot = &Listing{raw: m.Data[off : off+n : off+n]} // the message's own bytes, never reused
			return nil
		}
		*r = WaitResult{}
	}
	return json.Unmarshal(m.Data, r)
}

// listingSpan reads HeaderListing, checked against the body.
func listingSpan(m *nats.Msg) (off, n int, ok bool) {
	a, b, found := strings.Cut(m.Header.Get(HeaderListing), ",")
	off, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !found || err1 != nil || err2 != nil || off <= 0 || n <= 0 || off > len(m.Data)-n {
		return 0, 0, false
	}
	return off, n, true
}

// WaitTrigger is what made a condition hold.
type WaitTrigger struct {
	// Kind is "initial" (it held when the wait began), "event" or "recheck".
	Kind  string             `json:"kind"`
	Event observer.EventType `json:"event,omitempty"`
	Raw   string             `json:"raw,omitempty"`
}

// Armed is the interim reply a wait sends once it listens, to a requester that asked for it
// with the HeaderInterim header.
type Armed struct {
	Armed bool `json:"armed"`
}

// Wait waits for a condition and returns how the wait ended. A wait that did not meet its
// condition is not an error: Outcome says so.
func (c *Client) Wait(ctx context.Context, req WaitRequest) (*WaitResult, error) {
	return c.WaitAfter(ctx, req, nil)
}

// WaitAfter arms a wait, runs act once the daemon says the wait listens (so nothing act causes
// is missed), then waits for the outcome: subscribe, act, wait.
func (c *Client) WaitAfter(ctx context.Context, req WaitRequest, act func(context.Context) error) (*WaitResult, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return nil, observer.Errorf(observer.CodeBadRequest, "Pass a JSON-encodable request.", "%v", err)
	}
	timeout := time.Duration(req.TimeoutMS) * time.Millisecond
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout+10*time.Second) // the daemon answers at the deadline
	defer cancel()
	inbox := c.nc.NewRespInbox()
	replies := make(chan *nats.Msg, 4) // an armed note and the outcome: a small channel, not SubscribeSync's 64k
	sub, err := c.nc.ChanSubscribe(inbox, replies)
	if err != nil {
		return nil, unavailable(inbox, err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	subject := c.subj.Endpoint("wait")
	msg := &nats.Msg{Subject: subject, Reply: inbox, Data: data, Header: nats.Header{}}
	if act != nil {
		msg.Header.Set(HeaderInterim, "armed")
	}
	if err := c.nc.PublishMsg(msg); err != nil {
		return nil, unavailable(subject, err)
	}
	for {
		var reply *nats.Msg
		select {
		case reply = <-replies:
		case <-ctx.Done():
			return nil, unavailable(subject, ctx.Err())
		}
		if len(reply.Data) == 0 && reply.Header.Get("Status") == "503" {
			return nil, unavailable(subject, nats.ErrNoResponders)
		}
		if e := decodeError(reply); e != nil {
			return nil, e
		}
		if reply.Header.Get(HeaderInterim) == "armed" {
			if act != nil {
				if err := act(ctx); err != nil {
					return nil, err
				}
				act = nil
			}
			continue
		}
		var r WaitResult
		if err := decodeWaitReply(reply, &r); err != nil {
			return nil, observer.Errorf(observer.CodeInternal, "The daemon and this client disagree on the API; use the same axbus version.",
				"wait reply not understood: %v", err)
		}
		return &r, nil
	}
}
