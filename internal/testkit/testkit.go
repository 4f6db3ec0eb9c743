// Package testkit holds the helpers the tests of several packages share, each once: waiting for
// a condition that nothing announces.
package testkit

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/internal/pace"
)

// lookEvery is how often Eventually looks again.
const lookEvery = 5 * time.Millisecond

// Eventually looks at cond until it holds, and fails t when within passes first, naming what
// it waited for. It is for what nothing announces: a counter, a file, another process's state.
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	errNotYet := errors.New("not yet")
	err := backoff.Retry(func() error {
		if cond() {
			return nil
		}
		return errNotYet
	}, pace.Every(context.Background(), lookEvery, within))
	if err != nil {
		t.Fatalf("%s: not within %v", what, within)
	}
}
