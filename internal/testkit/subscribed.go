package testkit

import (
	"testing"

	"github.com/nats-io/nats.go"
)

// Subscribed is a synchronous subscription to subject that the server has (flushed): what is
// published next reaches it.
func Subscribed(t testing.TB, nc *nats.Conn, subject string) *nats.Subscription {
	t.Helper()
	sub, err := nc.SubscribeSync(subject)
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil { // the server has the subscription once the PONG is back
		t.Fatal(err)
	}
	return sub
}
