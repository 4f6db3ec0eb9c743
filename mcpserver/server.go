package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/schemas"
)

// Server is the MCP server of one bus connection.
type Server struct {
	client *bus.Client
	srv    *mcp.Server
	events *eventResources
}

// New returns the server of client, its tools and event resources added.
func New(client *bus.Client) (*Server, error) {
	s := &Server{client: client}
	s.events = newEventResources(s)
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "axbus", Title: "axbus: the desktop's accessibility on a bus", Version: api.Version},
		&mcp.ServerOptions{
			Instructions:     instructions,
			SubscribeHandler: s.events.subscribe, UnsubscribeHandler: s.events.unsubscribe,
		})
	for _, t := range tools {
		in, out, err := toolSchemas(t)
		if err != nil {
			return nil, err
		}
		s.srv.AddTool(&mcp.Tool{Name: t.name, Description: t.description, InputSchema: in, OutputSchema: out,
			Annotations: annotations(t)}, s.handler(t))
	}
	if err := s.addEventsTool(); err != nil {
		return nil, err
	}
	s.events.add(s.srv)
	return s, nil
}

// instructions tell an agent how the tools fit together.
const instructions = "Tools of one desktop's accessibility tree. inspect lists elements with ids (SNAPSHOT:ELEMENT); " +
	"actions take an id or a locator (role=button,name=Save) and an expect (a condition, e.g. text:\"Saved\") that proves " +
	"their effect; wait_for waits by subscription. events returns what happened since a cursor; resources " +
	"axbus://events/{app} notify on every event. Errors carry a code and a suggestion."

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

// toolSchemas are a tool's input and output schemas: its endpoint's, made self-contained. A
// lease tool's request has its operation set by the tool.
func toolSchemas(t tool) (in, out json.RawMessage, err error) {
	if in, err = schemas.Bundled(t.endpoint + ".request"); err != nil {
		return nil, nil, err
	}
	if out, err = schemas.Bundled(t.endpoint + ".reply"); err != nil {
		return nil, nil, err
	}
	if out, err = objectRoot(out); err != nil { // MCP wants an object at the root (click.reply is a $ref)
		return nil, nil, err
	}
	if t.op != "" {
		var m map[string]any
		if err := json.Unmarshal(in, &m); err != nil {
			return nil, nil, err
		}
		delete(m["properties"].(map[string]any), "op")
		delete(m, "required")
		delete(m, "allOf") // the daemon checks the request whole, op included
		delete(m, "if")
		delete(m, "then")
		if in, err = json.Marshal(m); err != nil {
			return nil, nil, err
		}
	}
	return in, out, nil
}

// handler is a tool's call: its arguments, as they came, are the endpoint's request.
func (s *Server) handler(t tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if len(bytes.TrimSpace(args)) == 0 || bytes.Equal(bytes.TrimSpace(args), []byte("null")) {
			args = []byte("{}")
		}
		if t.op != "" {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(args, &m); err != nil {
				return toolError(observer.Errorf(observer.CodeBadRequest, "Give the arguments as a JSON object.", "arguments: %v", err)), nil
			}
			m["op"], _ = json.Marshal(t.op)
			args, _ = json.Marshal(m)
		}
		if t.endpoint == "screenshot" {
			return s.screenshot(ctx, args), nil
		}
		var raw json.RawMessage
		if err := s.client.CallRaw(ctx, t.endpoint, args, &raw); err != nil {
			return toolError(err), nil
		}
		return result(t.endpoint, raw), nil
	}
}

// toolError is an axbus error as an MCP tool error: its code, message and suggestion in the
// text an agent reads, and the error whole as JSON after it.
func toolError(err error) *mcp.CallToolResult {
	e := observer.AsError(err)
	text := fmt.Sprintf("%s: %s", e.Code, e.Message)
	if e.Suggestion != "" {
		text += "\nsuggestion: " + e.Suggestion
	}
	body, _ := json.Marshal(api.ErrorBody{Error: e})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}, &mcp.TextContent{Text: string(body)}}}
}

// maxText bounds a result's text form; the structured content is whole (the daemon's budgets
// bound it).
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
	return text[:end] + fmt.Sprintf("\n… cut at %d KiB: %d more lines in the structured content; scope the request to see fewer.", maxText>>10, rest)
}

// objectRoot gives a schema "type": "object" at its root when it has none.
func objectRoot(schema json.RawMessage) (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(schema, &m); err != nil {
		return nil, err
	}
	if _, ok := m["type"]; ok {
		return schema, nil
	}
	m["type"] = "object"
	return json.Marshal(m)
}
