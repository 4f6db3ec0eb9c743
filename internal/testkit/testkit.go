// Package testkit holds the helpers the tests of several packages share, each once: waiting for
// a condition that nothing announces (Eventually, Within) or for goroutines to wait where they
// should (Blocked), recording what a watch delivers (Record), a subscription the server has
// (Subscribed), a context and a logger bound to a test (Context, Logger).
//
// Where time itself is the subject (a timer, a quiet period, a motion), a test runs in a
// testing/synctest bubble instead, on virtual time.
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
	if !Within(within, cond) {
		t.Fatalf("%s: not within %v", what, within)
	}
}

// Within looks at cond as Eventually does and reports whether it held before within passed:
// for a caller whose failure names what it saw last.
func Within(within time.Duration, cond func() bool) bool {
	errNotYet := errors.New("not yet")
	return backoff.Retry(func() error {
		if cond() {
			return nil
		}
		return errNotYet
	}, pace.Every(context.Background(), lookEvery, within)) == nil
}
