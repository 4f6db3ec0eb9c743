package waiters

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/waiters/condition"
)

// Serve is the wait endpoint's operation: the request off the wire read and checked, then
// waited for; armed is called once the wait listens.
func (e *Engine) Serve(ctx context.Context, r api.WaitRequest, armed func()) (*Result, error) {
	req, err := FromWire(r)
	if err != nil {
		return nil, err
	}
	return e.Wait(ctx, req, armed)
}

// FromWire turns a wait request off the wire into a Request: the condition parsed (compact) or
// decoded (canonical JSON) and checked, the scope parsed, the durations in milliseconds read.
func FromWire(r api.WaitRequest) (Request, error) {
	var cond *condition.Condition
	var loc *condition.Locator
	var err error
	if len(bytes.TrimSpace(r.Condition)) == 0 && condition.IsLocator(r.Expr) {
		loc, err = condition.ParseLocator(r.Expr) // a locator holds once an element it names is there
	} else {
		cond, err = ConditionFromWire(r.Condition, r.Expr)
	}
	if err != nil {
		return Request{}, err
	}
	req := Request{Condition: cond, Locator: loc, App: r.Query(), Window: r.Window, Snapshot: r.Snapshot,
		Timeout: time.Duration(r.TimeoutMS) * time.Millisecond, Recheck: time.Duration(r.RecheckMS) * time.Millisecond}
	if r.Scope != "" {
		scope, err := observer.ParseScope(r.Scope)
		if err != nil {
			return Request{}, err
		}
		req.Scope = &scope
	}
	return req, nil
}

// ConditionFromWire reads a condition given in either form; exactly one must be given.
func ConditionFromWire(canonical json.RawMessage, compact string) (*condition.Condition, error) {
	hasJSON := len(bytes.TrimSpace(canonical)) > 0 && !bytes.Equal(bytes.TrimSpace(canonical), []byte("null"))
	switch {
	case hasJSON && compact != "":
		return nil, model.Errorf(model.CodeBadRequest, "Give either condition (JSON) or expr (compact form), not both.", "two conditions given")
	case compact != "":
		return condition.ParseCompact(compact)
	case hasJSON:
		var c condition.Condition
		dec := json.NewDecoder(bytes.NewReader(canonical))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			var e *model.Error
			if errors.As(err, &e) {
				return nil, e // the condition's own error, with its path and an example
			}
			return nil, model.Errorf(model.CodeBadRequest, "See the condition's schema: axbus schema condition", "condition: %v", err)
		}
		if err := c.Validate(); err != nil {
			return nil, err
		}
		return &c, nil
	}
	return nil, model.Errorf(model.CodeBadRequest, `Give a condition, e.g. expr: text:"Saved".`, "no condition")
}
