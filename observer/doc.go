// Package observer is the platform-neutral model of a desktop's accessibility tree: apps and their
// generations, windows, elements, budgets and the visible-clip walk, snapshots and their store,
// event normalisation and the fan-out of events to subscribers (Sinks), and the Backend interface
// that each platform (observer/atspi, observer/ax, observer/sim) implements.
//
// It imports the standard library only: no NATS, no D-Bus, no AppKit. A test proves it.
package observer
