package observer

// RecheckGate is a backend that re-reads some apps on its own, because their toolkit misses
// notifications (GTK4), and lets its owner say which apps are worth that work: those someone
// observes. Without a gate every such app is re-read.
type RecheckGate interface {
	RecheckWhen(observed func(App) bool)
}
