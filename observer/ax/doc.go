// Package ax is the macOS backend over AX, CoreFoundation, CoreGraphics and AppKit via purego (no
// cgo, so it cross-compiles and vets from Linux).
//
// Open gives the backend; the observer does the rest:
//
//	b, err := ax.Open() // the Accessibility permission missing: PERMISSION_DENIED, saying where to grant it
//	if err != nil {
//		return err
//	}
//	obs := observer.New(b)
//
// Files without a build tag are platform-free and tested on every OS: the AX roles and
// notifications normalised to the observer's vocabulary, attributes onto nodes, the AXError
// table, the chains, and the backend's decisions with the C calls passed in (handles, bringing
// an app to the front, keymaps and typing, CFString, pixels). The simulated desktop
// (observer/sim) uses the same tables, so a simulated tree reads as a real one would.
// ARCHITECTURE.md maps the files tagged darwin, one concept each; what is unverified without a
// Mac is said in the README.
package ax
