// Package client is the Go API of an axbus daemon for agents and tools: one typed call per
// endpoint of the micro service (waits, actions with expects, inspections, leases, ...), event
// tails live and from history, across one host or a fleet of them. It speaks to the daemon over
// NATS only; a program that uses it imports client and api, never the service.
//
//	nc, _ := nats.Connect(nats.DefaultURL)
//	c, _ := client.New(ctx, nc) // the host is discovered: the one daemon nc reaches
//	res, err := c.WaitAfter(ctx, api.WaitRequest{Expr: `text:"Saved"`, AppTarget: api.AppTarget{App: "gedit"}},
//		func(ctx context.Context) error { _, err := c.Act(ctx, "key", api.ActionRequest{Keys: "ctrl+s", AppTarget: api.AppTarget{App: "gedit"}}); return err })
package client
