package commands

import (
	"context"
	"time"

	"github.com/axbus/axbus/bus"
)

// descriptions of the action endpoints.
var descriptions = map[string]string{
	"click":     "Click an element (press, confirm, open, ... as the platform's chain says); prove it with expect.",
	"press":     "Invoke a named action of an element (action: AXPress, activate, ...).",
	"set_value": "Set an element's value (value) directly.",
	"type":      "Type text (text) into an element, appended to its value.",
	"focus":     "Give an element the keyboard focus.",
	"scroll_to": "Scroll an element into view.",
	"expand":    "Expand an element (a disclosure, a tree row).",
	"collapse":  "Collapse an element.",
	"select":    "Select an element (a row, an item).",
	"toggle":    "Toggle a checkbox or switch, exactly once.",
	"check":     "Check a checkbox (nothing when it is checked already).",
	"uncheck":   "Uncheck a checkbox (nothing when it is unchecked already).",
	"key":       "Send a key combination (keys: ctrl+s) to an app; physical input, so policy physical.",
}

// Endpoints are the service's action endpoints, one per action.
func (e *Engine) Endpoints() []bus.Endpoint {
	eps := make([]bus.Endpoint, 0, len(bus.Actions))
	for _, action := range bus.Actions {
		eps = append(eps, bus.Endpoint{
			Name:        action,
			Description: descriptions[action],
			Timeout:     e.deadline + 5*time.Minute + 30*time.Second, // the chain, then at most the longest expect
			Handle: bus.Handler(action, func(ctx context.Context, r bus.ActionRequest) (any, error) {
				return e.Do(ctx, action, r)
			}),
		})
	}
	return eps
}
