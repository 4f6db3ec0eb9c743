package mcpserver

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/waiters/condition"
)

// call is one tool call: the endpoint's request made of the tool's arguments, and what the tool
// does beside the endpoint (a listing narrowed to a locator's matches, a wait's listing shown).
type call struct {
	t   tool
	se  *session
	req json.RawMessage
	// find is inspect's locator: only its matches are listed.
	find *condition.Locator
	// listing asks wait_for for the listing of the snapshot that holds its match.
	listing bool
}

// newCall turns a tool's arguments into its endpoint's request: the tool's op set, bare element
// ids (e12) given the session's last listing, expect and wait_for's condition (a condition's
// text) given as the endpoint's wait request. The daemon checks the request against the
// endpoint's schema; this checks only what the tool's own arguments are.
func newCall(t tool, se *session, raw json.RawMessage) (*call, error) {
	args := map[string]json.RawMessage{}
	if raw = bytes.TrimSpace(raw); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, model.Errorf(model.CodeBadRequest, "Give the arguments as a JSON object.", "arguments: %v", err)
		}
	}
	c := &call{t: t, se: se}
	takes := strings.Fields(t.in)
	for name := range args {
		if !slices.Contains(takes, name) {
			return nil, badArgs(t, "%s takes no argument %q", t.name, name)
		}
	}
	for _, name := range []string{"target", "scope"} {
		if err := c.element(args, name); err != nil {
			return nil, err
		}
	}
	if err := c.conditions(args); err != nil {
		return nil, err
	}
	if err := c.extras(args); err != nil {
		return nil, err
	}
	if t.op != "" {
		args["op"], _ = json.Marshal(t.op)
	}
	c.req, _ = json.Marshal(args)
	return c, nil
}

// badArgs is a refusal of a tool's arguments, the suggestion naming those it takes.
func badArgs(t tool, format string, args ...any) *model.Error {
	takes := "none"
	if t.in != "" {
		takes = strings.ReplaceAll(t.in, " ", ", ")
	}
	return model.Errorf(model.CodeBadRequest, t.name+" takes: "+takes+".", format, args...)
}

// element gives a bare element id (e12) the snapshot of the session's last listing.
func (c *call) element(args map[string]json.RawMessage, name string) error {
	raw, ok := args[name]
	if !ok {
		return nil
	}
	var id string
	if json.Unmarshal(raw, &id) != nil {
		return badArgs(c.t, "%s is a string: e12 or SNAPSHOT:e12", name)
	}
	if _, bare := model.ParseElementID(id); !bare {
		return nil // SNAPSHOT:e12, or what the daemon refuses with its reason
	}
	snap, err := c.snapshot(id)
	if err != nil {
		return err
	}
	args[name], _ = json.Marshal(snap + ":" + id)
	return nil
}

// snapshot is the snapshot bare ids name: the session's last listing.
func (c *call) snapshot(what string) (string, error) {
	if last := c.se.last(); last != "" {
		return last, nil
	}
	return "", model.Errorf(model.CodeBadRequest, "Call inspect first: its ids are then the ones a bare id names; or give SNAPSHOT:e12.",
		"%s names an element of the last listing, and this session has had none", what)
}

// conditions turns expect (an action's) and condition (wait_for's), a condition's text, into
// the wait requests of the endpoint.
func (c *call) conditions(args map[string]json.RawMessage) error {
	timeout, hasTimeout := args["expect_timeout_ms"]
	delete(args, "expect_timeout_ms")
	if raw, ok := args["expect"]; ok {
		w, err := c.wait(raw, "expect")
		if err != nil {
			return err
		}
		if hasTimeout {
			w["timeout_ms"] = timeout
		}
		args["expect"], _ = json.Marshal(w)
	} else if hasTimeout {
		return badArgs(c.t, "expect_timeout_ms without expect")
	}
	if raw, ok := args["condition"]; ok {
		w, err := c.wait(raw, "condition")
		if err != nil {
			return err
		}
		delete(args, "condition")
		for k, v := range w {
			args[k] = v
		}
	}
	return nil
}

// wait is a condition's text as the fields of a wait request: expr, and the snapshot its
// element ids (value:e12=42) come from.
func (c *call) wait(raw json.RawMessage, name string) (map[string]json.RawMessage, error) {
	var expr string
	if json.Unmarshal(raw, &expr) != nil {
		return nil, badArgs(c.t, `%s is a condition's text, e.g. text:"Saved"`, name)
	}
	w := map[string]json.RawMessage{"expr": raw}
	if condition.IsLocator(expr) {
		return w, nil
	}
	if cond, err := condition.ParseCompact(expr); err == nil && len(cond.Targets()) > 0 {
		snap, err := c.snapshot(name + " " + strings.Join(cond.Targets(), ", "))
		if err != nil {
			return nil, err
		}
		w["snapshot"], _ = json.Marshal(snap)
	}
	return w, nil // a condition that does not parse: the daemon says where, in its column
}

// extras takes out the arguments the tool handles itself: inspect's find, wait_for's listing.
func (c *call) extras(args map[string]json.RawMessage) error {
	if raw, ok := args["find"]; ok {
		var loc string
		if json.Unmarshal(raw, &loc) != nil {
			return badArgs(c.t, "find is a locator's text, e.g. role=button,name~Save")
		}
		l, err := condition.ParseLocator(loc)
		if err != nil {
			return err
		}
		c.find = l
		delete(args, "find")
	}
	if raw, ok := args["listing"]; ok {
		if json.Unmarshal(raw, &c.listing) != nil {
			return badArgs(c.t, "listing is true or false")
		}
		delete(args, "listing")
	}
	return nil
}
