// Package observer is the platform-neutral model of a desktop's accessibility tree: apps and their
// generations, windows, elements, budgets and the visible-clip walk, snapshots and their store,
// event normalisation and the fan-out of events to subscribers (Sinks), the data the wire carries
// (diffs, read results, recognised text), and the Backend interface that each platform
// (observer/atspi, observer/ax, observer/sim) implements, with the optional capabilities a backend
// may add (capabilities.go).
//
// What works over it lives beside it: observer/live (the tracking engine: live windows and the
// poller), observer/text (reading a window's text), observer/screen (screenshots and OCR).
//
// It imports the standard library only: no NATS, no D-Bus, no AppKit. A test proves it.
package observer
