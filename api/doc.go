// Package api is the wire contract of axbus, free of any transport: the requests and replies
// of every endpoint, the event and snapshot-diff envelopes, the error body, the headers, the
// table of endpoints with their defaults and limits. It imports neither nats.go nor the schema
// validator, so a program that only decodes events or builds requests imports this package
// alone; package bus carries these types over NATS and package schemas holds their JSON
// Schemas.
package api
