package api

import "time"

// AgentsRequest asks who is connected.
type AgentsRequest struct{}

// AgentsReply lists the identities connected now, by name.
type AgentsReply struct {
	Agents []Agent `json:"agents"`
}

// Agent is one connected identity: its role, its connections as the server knows them, the
// last action it asked for in this daemon run and the leases it holds.
type Agent struct {
	Name string `json:"name"`
	Role string `json:"role"`
	// Since is when its oldest open connection connected.
	Since       time.Time   `json:"since"`
	Connections []AgentConn `json:"connections"`
	// LastAction is the audit record of its last action, absent before its first.
	LastAction *ActionRecord `json:"last_action,omitempty"`
	Leases     []string      `json:"leases,omitempty"`
	// Waiting lists the leases it waits for (an acquire with wait_ms).
	Waiting []string `json:"waiting,omitempty"`
}

// AgentConn is one client connection of an identity.
type AgentConn struct {
	// ID is the server's connection id: the conn of api.Identity.
	ID    uint64    `json:"id"`
	Since time.Time `json:"since"`
	// Name, Lang and Version are what the client said of itself when it connected.
	Name    string `json:"name,omitempty"`
	Lang    string `json:"lang,omitempty"`
	Version string `json:"version,omitempty"`
}
