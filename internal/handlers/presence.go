package handlers

import (
	"cmp"
	"context"
	"slices"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/bus"
)

// Presence is the agents endpoint's handler: the identities connected now, as the server knows
// them, each with its last action (the audit trail's), the leases it holds and those it waits for.
type Presence struct {
	Connected func(ctx context.Context) ([]api.Agent, error)
	Audit     *bus.Audit                 // nil: no last actions
	LeasesOf  func(name string) []string // nil: no leases
	WaitingOf func(name string) []string // the leases it waits for; nil: none
}

// Serve lists who is connected, each with its last action and leases.
func (p *Presence) Serve(ctx context.Context, _ api.AgentsRequest) (any, error) {
	agents, err := p.Connected(ctx)
	if err != nil {
		return nil, err
	}
	for i := range agents {
		a := &agents[i]
		if p.Audit != nil {
			if r, ok := p.Audit.Last(a.Name); ok {
				a.LastAction = &r
			}
		}
		if p.LeasesOf != nil {
			a.Leases = p.LeasesOf(a.Name)
		}
		if p.WaitingOf != nil {
			a.Waiting = p.WaitingOf(a.Name)
		}
	}
	slices.SortFunc(agents, func(a, b api.Agent) int { return cmp.Compare(a.Name, b.Name) })
	if agents == nil {
		agents = []api.Agent{}
	}
	return api.AgentsReply{Agents: agents}, nil
}
