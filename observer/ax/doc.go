// Package ax is the macOS backend over AX, CoreFoundation and AppKit via purego (no cgo, so it
// cross-compiles and vets from Linux).
//
// Files without a build tag are platform-free tables tested on every OS: AX roles and
// notifications normalised to the observer's vocabulary, and the mapping of an element's AX
// attributes onto an observer.Node. The simulated desktop (observer/sim) uses the same tables,
// so a simulated tree reads exactly as a real one would.
package ax
