package testkit

import (
	"context"
	"testing"
	"time"
)

// Context is a context that ends within d, or with the test.
func Context(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
