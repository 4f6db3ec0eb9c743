package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/axbus/axbus/model"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

// Server is the MCP server of one bus connection.
type Server struct {
	// client is set once, when the daemon first answers (Connect), before up: a handler that
	// runs has passed the check of up (available), so it reads it set.
	client *client.Client
	up     atomic.Bool
	// lastErr is why the daemon did not answer the last time it was dialled; tried is closed
	// once the first dial has ended, however.
	lastErr atomic.Pointer[model.Error]
	tried   chan struct{}
	// redial asks the dialler, between its tries, to dial at once (closing the channel sent
	// once it has).
	redial chan chan struct{}

	srv      *mcp.Server
	events   *eventResources
	sessions sync.Map // *mcp.ServerSession -> *session
}

// New returns the server, its tools and event resources added. It answers the protocol at once;
// its tools say UNAVAILABLE until Connect has reached the daemon.
func New() (*Server, error) {
	s := &Server{tried: make(chan struct{}), redial: make(chan chan struct{})}
	s.events = newEventResources(s)
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "axbus", Title: "axbus: the desktop's accessibility on a bus", Version: api.Version},
		&mcp.ServerOptions{
			Instructions:     instructions,
			SubscribeHandler: s.subscribeWhenUp, UnsubscribeHandler: s.events.unsubscribe,
		})
	for _, t := range tools {
		s.srv.AddTool(&mcp.Tool{Name: t.name, Description: t.description, InputSchema: inputSchema(t), Annotations: annotations(t)}, s.handler(t))
	}
	if err := s.addEventsTool(); err != nil {
		return nil, err
	}
	s.events.add(s.srv)
	s.srv.AddReceivingMiddleware(s.whileAway)
	return s, nil
}

// instructions tell an agent how the tools fit together, and the condition language, once.
const instructions = `Tools of one desktop's accessibility tree. list_apps; inspect lists a window's elements, one a line: ` +
	`e12 button "Save" [disabled], under the id of its snapshot (s_…). ` +
	`Actions take target (e12: that element of the last listing this session got; or s_…:e12, as matches are shown) ` +
	`or locator (role=button,name=Save with app; waits until it is actionable), and expect, a condition that proves the effect. ` +
	`Conditions (expect, wait_for): text:"Saved" (text="Exact", text:/regex/), element:role=button,name~Save, ` +
	`element:role=checkbox,name="Dark mode",state=checked, window:title~Report, window_gone, dialog:title~Save, ` +
	`focused:role=text_field, value:e12=42, state:e7=checked, state:e7!=checked; add gone to wait for absence; ` +
	`combine with and, or, ( ). = exact, ~ contains (any case), /re/ a regex. ` +
	`In an expect, state:checked, state!=checked, value:"42" and value~4 test the action's own target. ` +
	`A locator is an element condition's fields (role, name, label, value, state, nth=N); A >> B is B within A: dialog:title~Save >> role=button,name=OK. ` +
	`A failure is an error result: its code, why, and a suggestion.`

// MCP is the protocol server, to run on a transport.
func (s *Server) MCP() *mcp.Server { return s.srv }

func annotations(t tool) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{ReadOnlyHint: t.readOnly, IdempotentHint: t.readOnly}
	if !t.readOnly {
		destructive, closed := t.destructive, false
		a.DestructiveHint, a.OpenWorldHint = &destructive, &closed
	}
	return a
}

// handler is a tool's call: its arguments made the endpoint's request, the reply its result.
func (s *Server) handler(t tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c, err := newCall(t, s.sessionOf(req.Session), req.Params.Arguments)
		if err != nil {
			return toolError(err), nil
		}
		if t.endpoint == "screenshot" {
			return s.screenshot(ctx, c), nil
		}
		var raw json.RawMessage
		if err := s.client.CallRaw(ctx, t.endpoint, c.req, &raw); err != nil {
			return s.callError(ctx, t, err), nil
		}
		return c.result(raw), nil
	}
}

// callError is a call's error as a tool error: the connection's when it went meanwhile; a
// refusal of the arguments by the endpoint's schema said of the tool's.
func (s *Server) callError(ctx context.Context, t tool, err error) *mcp.CallToolResult {
	if away := s.away(ctx); away != nil {
		return toolError(away)
	}
	e := model.AsError(err)
	if schema, _ := e.Details["schema"].(string); e.Code == model.CodeBadRequest && schema != "" {
		refused := *e
		_, problems, _ := strings.Cut(e.Message, schema+": ")
		refused.Message = t.name + ": " + problems
		if refused.Suggestion = t.rule; t.rule == "" {
			refused.Suggestion = "See the tool's input schema."
		}
		e = &refused
	}
	return toolError(e)
}

// toolError is an axbus error as an MCP tool error: its code, message and suggestion in the
// text an agent reads, in MCP terms, and the error whole as JSON after it.
func toolError(err error) *mcp.CallToolResult {
	e := inTerms(model.AsError(err), inMCPTerms)
	body, _ := json.Marshal(api.ErrorBody{Error: e})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: errorLine(e)}, &mcp.TextContent{Text: string(body)}}}
}

// maxText bounds a result's text form.
const maxText = 32 << 10

// cut shortens text to maxText at a line's end, saying so.
func cut(text string) string {
	if len(text) <= maxText {
		return text
	}
	end := strings.LastIndexByte(text[:maxText], '\n')
	if end < 0 {
		end = maxText
	}
	rest := strings.Count(text[end:], "\n")
	return text[:end] + fmt.Sprintf("\n… cut at %d KiB: %d more lines left out; ask for less (scope, find, limit).", maxText>>10, rest)
}
