package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/internal/textform"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/schemas"
)

// Bounds of the events tool.
const (
	defaultEvents = 100
	maxEvents     = 1000
	maxEventsWait = 30 * time.Second
)

// eventsArgs are the events tool's arguments.
type eventsArgs struct {
	Cursor uint64 `json:"cursor"`
	Limit  int    `json:"limit"`
	App    string `json:"app"`
	Type   string `json:"type"`
	WaitMS int    `json:"wait_ms"`
}

// eventsPage is the events tool's result.
type eventsPage struct {
	Events []api.Envelope `json:"events"`
	Cursor uint64         `json:"cursor"`
	More   bool           `json:"more"`
}

const eventsInput = `{"type":"object","additionalProperties":false,"properties":{
 "cursor":{"type":"integer","minimum":0,"description":"The cursor the last call returned: the events after it. 0 or none: from the oldest event kept."},
 "limit":{"type":"integer","minimum":1,"maximum":1000,"description":"At most this many events (default 100)."},
 "app":{"type":"string","description":"Only this app's events (its name)."},
 "type":{"type":"string","description":"Only events of this type (focus_changed, value_changed, window_created, ...)."},
 "wait_ms":{"type":"integer","minimum":0,"maximum":30000,"description":"When there are none yet, wait this long for the first."}}}`

// eventsOutput is the page's schema, the event schema of the bus inside it.
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
	defs["event"] = event
	return json.Marshal(map[string]any{
		"type": "object", "required": []string{"events", "cursor", "more"},
		"properties": map[string]any{
			"events": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/event"}},
			"cursor": map[string]any{"type": "integer", "minimum": 0, "description": "Give it to the next call: nothing is missed in between."},
			"more":   map[string]any{"type": "boolean", "description": "The page is full: more events may follow at once."},
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
			"call again with the cursor returned and no event is missed, even without a subscription."}, s.eventsCall)
	return nil
}

func (s *Server) eventsCall(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a eventsArgs
	if raw := bytes.TrimSpace(req.Params.Arguments); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return toolError(observer.Errorf(observer.CodeBadRequest, "Give cursor, limit, app, type or wait_ms.", "events arguments: %v", err)), nil
		}
	}
	switch {
	case a.Limit == 0:
		a.Limit = defaultEvents
	case a.Limit < 0 || a.Limit > maxEvents || a.WaitMS < 0 || time.Duration(a.WaitMS)*time.Millisecond > maxEventsWait:
		return toolError(observer.Errorf(observer.CodeBadRequest, "Give limit 1-1000 and wait_ms 0-30000.", "limit %d or wait_ms %d out of range", a.Limit, a.WaitMS)), nil
	}
	evs, err := s.client.EventsAfter(ctx, a.Cursor, a.Limit, time.Duration(a.WaitMS)*time.Millisecond, bus.TailOptions{App: a.App, Type: a.Type})
	if err != nil {
		return toolError(err), nil
	}
	page := eventsPage{Events: make([]api.Envelope, len(evs)), Cursor: a.Cursor, More: len(evs) == a.Limit}
	var text strings.Builder
	for i, ev := range evs {
		page.Events[i], page.Cursor = ev.Event, ev.Seq
		text.WriteString(textform.EventLine(&page.Events[i]) + "\n")
	}
	text.WriteString(strconv.Itoa(len(evs)) + " events; cursor " + strconv.FormatUint(page.Cursor, 10))
	raw, _ := json.Marshal(page)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: cut(text.String())}}, StructuredContent: json.RawMessage(raw)}, nil
}
