// Package e2e holds the daemon-level end-to-end suites: security (roles the server enforces,
// attacks through the real nats CLI), the audit trail and presence, leases, the fleet of
// desktops joined to a hub, the MCP server over the built binary, and hostile clients (admission,
// consumers, heavy work, history, costly waits). Each runs real daemons (internal/testdaemon)
// and drives them as their users do: Go clients, the nats CLI, and the axbus binary; the CLI's
// own tests stay in cmd/axbus.
package e2e
