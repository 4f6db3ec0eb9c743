// Package bus puts the observer on NATS: subject builders and token sanitising, the event
// publisher (bounded, never blocking the observer), the micro service "axbus" whose endpoints
// live under ax.<host>.api. with its admission by identity (a reserve for admins, limits and
// fair shares, heavy work bounded), the audit trail, the JetStream consumer proxy, and Client,
// the Go API for agents that the axbus CLI itself uses (see the package example).
package bus
