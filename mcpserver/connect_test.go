package mcpserver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/client"
)

// TestToolsWhileTheDaemonIsAway: before the daemon answers, the server lists its tools, and a
// tool's call, a resource's read and a subscription say UNAVAILABLE: why, and how to start
// the daemon.
func TestToolsWhileTheDaemonIsAway(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	dialled := make(chan struct{})
	go func() {
		_ = s.Connect(ctx, func(context.Context) (*client.Client, error) {
			select {
			case dialled <- struct{}{}:
			default:
			}
			return nil, errors.New("no axbus daemon runs for state dir /nowhere")
		})
	}()
	t.Cleanup(cancel)
	<-dialled
	session := connectInMemory(t, s)
	if list, err := session.ListTools(ctx, nil); err != nil || len(list.Tools) != len(tools)+1 {
		t.Fatalf("tools/list: %v", err)
	}
	r, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "inspect", Arguments: map[string]any{"app": "Notes"}})
	if err != nil {
		t.Fatal(err)
	}
	got := r.Content[0].(*mcp.TextContent).Text
	for _, want := range []string{"UNAVAILABLE: the axbus daemon does not answer: no axbus daemon runs for state dir /nowhere", "axbus serve", "connects by itself"} {
		if !r.IsError || !strings.Contains(got, want) {
			t.Errorf("inspect: %q, want %q", got, want)
		}
	}
	if _, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "axbus://events/all"}); err == nil || !strings.Contains(err.Error(), "UNAVAILABLE") {
		t.Errorf("a resource's read: %v", err)
	}
	// A subscription is refused too (the go-sdk's client sends it as subscriptions/listen, whose
	// refusal it does not return), and the server answers on.
	if err := s.subscribeWhenUp(ctx, &mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: "axbus://events/all"}}); err == nil || !strings.Contains(err.Error(), "UNAVAILABLE") {
		t.Errorf("a subscription: %v", err)
	}
	_ = session.Subscribe(ctx, &mcp.SubscribeParams{URI: "axbus://events/all"})
	if _, err := session.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list after a subscription: %v", err)
	}
}

// TestToolsWhenTheDaemonRefuses: a daemon that refuses the connection (credentials it does not
// know) is no daemon to start: the tools say its code and that the configuration is to check.
func TestToolsWhenTheDaemonRefuses(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		_ = s.Connect(ctx, func(context.Context) (*client.Client, error) {
			return nil, model.Errorf(model.CodePermissionDenied, "Check the credentials (--nkey, --creds, --context).",
				"nats://hub.example:4222 does not know these credentials (never added, or removed)")
		})
	}()
	r, err := connectInMemory(t, s).CallTool(ctx, &mcp.CallToolParams{Name: "list_apps"})
	if err != nil {
		t.Fatal(err)
	}
	got := r.Content[0].(*mcp.TextContent).Text
	for _, want := range []string{"PERMISSION_DENIED: the axbus daemon refuses this server's connection: nats://hub.example:4222 does not know these credentials",
		"suggestion: Check the server and credentials this MCP server is configured with"} {
		if !r.IsError || !strings.Contains(got, want) {
			t.Errorf("list_apps: %q, want %q", got, want)
		}
	}
}
