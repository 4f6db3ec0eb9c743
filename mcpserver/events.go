package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/client"
	"github.com/axbus/axbus/schemas"
)

// Bounds of the events tool.
const (
	defaultEvents = 100
	maxEvents     = 1000
	maxEventsWait = 30 * time.Second
)

// defaultExclude are the kinds the events tool and resource leave out unless told otherwise:
// storms an agent rarely reads (one page switch on GTK3 is ~200 showing changes).
var defaultExclude = []string{"state_changed:showing", "state_changed:visible", "layout_changed"}

// eventsArgs are the events tool's arguments.
type eventsArgs struct {
	Cursor uint64 `json:"cursor"`
	Limit  int    `json:"limit"`
	App    string `json:"app"`
	Type   string `json:"type"`
	// Exclude is nil when not given (defaultExclude), empty when nothing is to be left out.
	Exclude *[]string `json:"exclude"`
	WaitMS  int       `json:"wait_ms"`
}

var eventsInput = `{"type":"object","additionalProperties":false,"properties":{
 "cursor":{"type":"integer","minimum":0,"description":"The cursor the last call returned: the events after it. 0 or none: from the oldest event kept."},
 "limit":{"type":"integer","minimum":1,"maximum":1000,"description":"At most this many events (default 100)."},
 "app":{"type":"string","description":"Only this app's events (its name)."},
 "type":{"type":"string","description":"Only events of this type (focus_changed, value_changed, window_created, ...)."},
 "exclude":{"type":"array","items":{"type":"string"},"description":"Leave out these kinds: TYPE or TYPE:DETAIL, the detail a state_changed's state or a children_changed's or text_changed's op (state_changed:showing, children_changed:add). Default: ` + strings.Join(defaultExclude, ", ") + `; [] leaves out none."},
 "wait_ms":{"type":"integer","minimum":0,"maximum":30000,"description":"When there are none yet, wait this long for the first."}}}`

// eventsOutput is the page's schema, the event schema of the bus inside it, with a run's count.
func eventsOutput() (json.RawMessage, error) {
	raw, err := schemas.Bundled("event")
	if err != nil {
		return nil, err
	}
	var event map[string]any
	if err := json.Unmarshal(raw, &event); err != nil {
		return nil, err
	}
	defs, _ := event["$defs"].(map[string]any)
	if defs == nil {
		defs = map[string]any{}
	}
	delete(event, "$defs")
	if props, ok := event["properties"].(map[string]any); ok {
		props["count"] = map[string]any{"type": "integer", "minimum": 2,
			"description": "This entry stands for this many consecutive events of its app, type and detail; it is the last of them."}
	}
	defs["event"] = event
	return json.Marshal(map[string]any{
		"type": "object", "required": []string{"events", "cursor", "more"},
		"properties": map[string]any{
			"events":   map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/event"}},
			"cursor":   map[string]any{"type": "integer", "minimum": 0, "description": "Give it to the next call: nothing is missed in between."},
			"more":     map[string]any{"type": "boolean", "description": "More events follow at once."},
			"excluded": map[string]any{"type": "integer", "minimum": 1, "description": "Events left out by exclude."},
			"earlier":  map[string]any{"type": "integer", "minimum": 1, "description": "Older events left out to bound the page."},
		},
		"$defs": defs,
	})
}

func (s *Server) addEventsTool() error {
	out, err := eventsOutput()
	if err != nil {
		return err
	}
	s.srv.AddTool(&mcp.Tool{Name: "events", InputSchema: json.RawMessage(eventsInput), OutputSchema: out,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "The desktop's events (focus, values, windows, dialogs, ...) after a cursor, from the daemon's stream: " +
			"call again with the cursor returned and no event is missed, even without a subscription. exclude leaves kinds out (by default the storms of " +
			"showing changes and layouts). Consecutive events of one app and kind are one line ending ×N. The text ends with the cursor."}, s.eventsCall)
	return nil
}

func (s *Server) eventsCall(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a eventsArgs
	if raw := bytes.TrimSpace(req.Params.Arguments); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return toolError(model.Errorf(model.CodeBadRequest, "Give cursor, limit, app, type, exclude or wait_ms.", "events arguments: %v", err)), nil
		}
	}
	switch {
	case a.Limit == 0:
		a.Limit = defaultEvents
	case a.Limit < 0 || a.Limit > maxEvents || a.WaitMS < 0 || time.Duration(a.WaitMS)*time.Millisecond > maxEventsWait:
		return toolError(model.Errorf(model.CodeBadRequest, "Give limit 1-1000 and wait_ms 0-30000.", "limit %d or wait_ms %d out of range", a.Limit, a.WaitMS)), nil
	}
	opt, err := selection(a.App, a.Type, a.Exclude)
	if err != nil {
		return toolError(err), nil
	}
	wait := time.Duration(a.WaitMS) * time.Millisecond
	p, err := s.client.EventsAfter(ctx, a.Cursor, a.Limit, wait, opt)
	if err != nil {
		return toolError(err), nil
	}
	text, page := newEventsPage(p).text(opt.Exclude)
	if fit := page.events(); fit < len(p.Events) { // cut to fit: read as far again, for the count left out up to its cursor
		if p, err = s.client.EventsAfter(ctx, a.Cursor, fit, 0, opt); err != nil {
			return toolError(err), nil
		}
		text, page = newEventsPage(p).text(opt.Exclude)
	}
	raw, _ := json.Marshal(page)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: json.RawMessage(raw)}, nil
}

// selection is the tail options of an app, a type and the kinds to exclude (nil: the default).
func selection(app, typ string, exclude *[]string) (client.TailOptions, error) {
	kinds := defaultExclude
	if exclude != nil {
		kinds = *exclude
	}
	parsed, err := client.ParseEventKinds(kinds)
	if err != nil {
		return client.TailOptions{}, err
	}
	return client.TailOptions{App: app, Type: typ, Exclude: parsed}, nil
}
