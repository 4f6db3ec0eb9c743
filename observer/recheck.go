package observer

// RecheckGate is a backend that re-reads some apps on its own, because their toolkit misses
// notifications (GTK4), and lets its owner say which apps are worth that work and how often:
// fast while a wait or an expect is pending on the app (its reply waits on the re-read), slow
// while someone else observes it, never when no one does. Without a gate every such app is
// re-read slowly.
type RecheckGate interface {
	RecheckWhen(rate func(App) Recheck)
}

// Recheck is how often a backend re-reads an app whose toolkit misses events.
type Recheck int

// The recheck rates.
const (
	RecheckNone Recheck = iota // nobody observes the app
	RecheckSlow                // observed: its polled diffs, a client of its events, a tail
	RecheckFast                // a wait or an expect is pending on it
)
