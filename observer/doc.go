// Package observer is the platform-neutral core over a desktop's accessibility tree: the Backend
// interface that each platform (observer/atspi, observer/ax, observer/sim) implements and the
// optional capabilities a backend may add (capabilities.go), app generations, the visible-clip
// walk, snapshots and their store, the secure gate and the fan-out of events to subscribers
// (Sinks), chains as data. What it reads and says is the model (package model).
//
// What works over it lives beside it: observer/live (the tracking engine: live windows and the
// poller), observer/text (reading a window's text), observer/screen (screenshots and OCR).
//
// It imports the standard library and model only: no NATS, no D-Bus, no AppKit. A test proves it.
package observer
