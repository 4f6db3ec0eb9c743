// Package pace owns the one way axbus paces a look-again loop: a backoff/v4 policy of constant
// intervals, for what nothing announces (a registry's listing, a state a chain must prove, a
// browser's tree being built).
package pace

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Every is a look every interval while ctx lasts and, when within is not 0, until the first
// look after within has passed, which is the last. Use it with backoff.Retry.
func Every(ctx context.Context, interval, within time.Duration) backoff.BackOff {
	if within == 0 {
		return backoff.WithContext(backoff.NewConstantBackOff(interval), ctx)
	}
	// NextBackOff stops once elapsed+interval passes MaxElapsedTime, so within+interval lets the
	// look that comes just after within be made.
	return backoff.WithContext(backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(interval), backoff.WithMaxInterval(interval),
		backoff.WithMultiplier(1), backoff.WithRandomizationFactor(0),
		backoff.WithMaxElapsedTime(within+interval)), ctx)
}
