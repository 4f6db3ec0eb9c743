package observer

// Recheck is how often a backend re-reads an app whose toolkit misses events.
type Recheck int

// The recheck rates.
const (
	RecheckNone Recheck = iota // nobody observes the app
	RecheckSlow                // observed: its polled diffs, a client of its events, a tail
	RecheckFast                // a wait or an expect is pending on it
)
