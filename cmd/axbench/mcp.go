package main

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axbus/axbus/api"
)

// mcpActions is how many check-or-uncheck round trips each way makes.
const mcpActions = 200

// benchMCP: on the simulated desktop, an action with its expect (check or uncheck "Remember me",
// proven by its state), as an MCP tool call to `axbus mcp` over stdio (the go-sdk's client, the
// binary as an agent runs it) and as a client.Client request over TCP, interleaved.
func benchMCP() ([]row, error) {
	d, stop, err := startWithClient(simDemo)
	if err != nil {
		return nil, err
	}
	defer stop()
	ctx, dir, client := context.Background(), d.dir, d.client
	session, err := mcp.NewClient(&mcp.Implementation{Name: "axbench", Version: api.Version}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(*axbusBin, "mcp", "--state-dir", dir)}, nil)
	if err != nil {
		return nil, fmt.Errorf("axbus mcp (%s): %w", *axbusBin, err)
	}
	defer session.Close()
	const locator = `role=checkbox,name="Remember me"`
	request := func(action string) api.ActionRequest {
		state := "state=checked"
		if action == "uncheck" {
			state = "state!=checked"
		}
		return api.ActionRequest{Locator: locator, AppTarget: api.AppTarget{App: "Notes"},
			Expect: &api.WaitRequest{Expr: "element:" + locator[len("role=checkbox,"):] + "," + state, TimeoutMS: 5000}}
	}
	var viaMCP, viaBus []time.Duration
	for i := range 2*mcpActions + 20 {
		action := [2]string{"check", "uncheck"}[i%2]
		req := request(action)
		start := time.Now()
		if i%4 < 2 {
			// The tool's arguments: expect a condition's text, its time limit beside it.
			args := map[string]any{"locator": req.Locator, "app": req.App, "expect": req.Expect.Expr, "expect_timeout_ms": req.Expect.TimeoutMS}
			r, err := session.CallTool(ctx, &mcp.CallToolParams{Name: action, Arguments: args})
			if err != nil {
				return nil, err
			}
			if r.IsError {
				return nil, fmt.Errorf("mcp %s: %v", action, r.Content)
			}
			if i >= 20 {
				viaMCP = append(viaMCP, time.Since(start))
			}
		} else {
			r, err := client.Act(ctx, action, req)
			if err != nil {
				return nil, err
			}
			if r.Expect == nil || r.Expect.Outcome != api.WaitMet {
				return nil, fmt.Errorf("bus %s: expect %v", action, r.Expect)
			}
			if i >= 20 {
				viaBus = append(viaBus, time.Since(start))
			}
		}
	}
	mcp50, bus50 := percentile(viaMCP, 50), percentile(viaBus, 50)
	return []row{
		{"mcp", "check/uncheck + expect by locator, an MCP tool call to axbus mcp over stdio, p50 / p99", p50p99(viaMCP),
			fmt.Sprintf("%d calls, the go-sdk client; the simulated desktop", len(viaMCP)), "", ""},
		{"mcp", "the same through client.Client over TCP, p50 / p99", p50p99(viaBus),
			fmt.Sprintf("%d requests, interleaved; MCP adds %s at p50 (%.2fx)", len(viaBus), us(mcp50-bus50), float64(mcp50)/float64(bus50)), "", ""},
	}, nil
}
