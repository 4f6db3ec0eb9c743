// Package bus puts the observer on NATS, transport only: the event and snapshot-diff
// publishers (bounded, never blocking the observer), the micro service "axbus" whose endpoints
// live under <prefix>.<host>.api. and are given their handlers (Route), with admission by
// identity (a reserve for admins, limits and fair shares, heavy work bounded), actions taken in
// their order of arrival, the audit trail, the JetStream consumer proxy and the coordination
// relay. Its subjects are api.Subjects; its client is package client.
package bus
