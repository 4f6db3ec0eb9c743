// Package client is the Go API of an axbus daemon for agents and tools: one typed call per
// endpoint of the micro service (waits, actions with expects, inspections, leases, ...), event
// tails live and from history, across one host or a fleet of them. It speaks to the daemon over
// NATS only; a program that uses it imports client and api, never the service.
//
//	nc, _ := nats.Connect(nats.DefaultURL)
//	c, _ := client.New(ctx, nc)
//	res, err := c.Wait(ctx, api.WaitRequest{App: api.AppTarget{Name: "gedit"}, Condition: cond})
package client
