package main

import (
	"context"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

type consoleCmd struct {
	Role string `enum:"monitor,agent" default:"monitor" help:"the page's identity: monitor watches; agent may act too (screenshots in the Window view, actions), as console-agent."`
	connFlags
}

// Run asks the daemon for a fresh console URL: its token is good once, for 10 minutes.
func (c *consoleCmd) Run(e *env) error {
	return call(e, &c.connFlags, func(ctx context.Context, cl *client.Client) (any, error) {
		return cl.Console(ctx, api.ConsoleRequest{Role: c.Role})
	})
}
