// Package bus puts the observer on NATS: subject builders and token sanitising, the event and
// error envelopes, the event publisher (bounded, never blocking the observer), the micro
// service "axbus" whose endpoints live under ax.<host>.api., and Client, the Go API for agents
// that the axbus CLI itself uses.
package bus
