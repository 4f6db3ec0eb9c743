//go:build linux

package headless

import (
	"errors"
	"time"
)

// pollInterval is how often Start and the registry waits look again.
const pollInterval = 10 * time.Millisecond

// errNotYet is a look that did not find what a wait waits for: look again.
var errNotYet = errors.New("headless: not yet")
