// Package sim is a simulated desktop: macOS-shaped accessibility trees loaded from JSON fixtures
// (fixtures/desktops/*.json), implementing observer.Backend with the macOS backend's Platform, "ax".
//
// It owns the fixture format and its validation, the simulated apps and their trees, the
// behaviour of AX actions and attributes (a checkbox toggles on AXPress, AXFocused moves focus),
// scripted reactions and notification streams, injectable faults (transient errors, lying and
// no-op actions, slow, hung and dying apps), per-call latency, and the Go controls that tests use
// to mutate the tree, restart apps and play scripts. Roles, notifications and the mapping of
// attributes onto nodes come from observer/ax, so the simulator reads like the real backend.
//
// It serves deterministic logic and fault tests, never in place of an end-to-end test on a real
// app, and `axbus serve --backend sim` for trying axbus without a desktop. Everything is safe
// for concurrent use.
package sim
