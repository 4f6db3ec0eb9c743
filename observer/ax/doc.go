// Package ax is the macOS backend over AX, CoreFoundation, CoreGraphics and AppKit via purego (no
// cgo, so it cross-compiles and vets from Linux).
//
// Files without a build tag are platform-free and tested on every OS: AX roles and notifications
// normalised to the observer's vocabulary (roles.go, notifications.go), the mapping of an
// element's AX attributes onto an observer.Node (attributes.go) and of converted attribute values
// onto Attributes, windows and settable values, with the decoding of AXValue payloads (values.go),
// the AXError table and its observer error codes (axerror.go), and the macOS action chains
// (chains.go). The backend's decisions live there too, with the C calls passed in: the element
// handle table and its eviction, which never drops an app element or a window (handles.go); when
// and how an app is brought to the front for physical input, activation first and AXFrontmost
// when that does not take (front.go); the keyboard as key codes and the shift each character
// needs (keymap.go), key combinations (keys.go), text as keystrokes (typing.go) and input checked
// before anything is sent (inputplan.go); and how strings cross into and out of CFString
// (cfstring.go); the pixel layouts of a CGImage and their conversion, Retina scaled down to
// points (pixels.go, screen.go), which window a change is for (windowops.go) and how a launch
// names its app (launch.go). The simulated desktop (observer/sim) uses the same tables, so a simulated tree
// reads exactly as a real one would. purego_test.go keeps the module free of cgo and purego's C
// callbacks a fixed set.
//
// The files tagged darwin hold the backend itself (Open):
//
//   - bindings_darwin.go loads the frameworks lazily, once, and binds the C functions and data
//     symbols; cf_darwin.go holds the CoreFoundation primitives (strings, numbers, arrays,
//     interned attribute names); axcalls_darwin.go the AX read calls and the copy of their
//     answers into Go values.
//
//   - element_darwin.go fills the handle table ("ax:<pid>:<n>") with AXUIElementRefs: one
//     retained per element, found again by CFEqual, with the messaging timeout set before its
//     first call. An element whose notification says it was destroyed is only looked up, never
//     added.
//
//   - read_darwin.go reads elements, one AXUIElementCopyMultipleAttributeValues round trip each
//     (a secure field's AXValue is never read: an element's role is read before anything else),
//     up to four apps at once; windows_darwin.go, focus_darwin.go, actions_darwin.go and
//     webax_darwin.go are Windows, FocusPath, Perform and SetAttribute, and SetWebAccessibility.
//
//   - apps_darwin.go and workspace_darwin.go list the apps: NSWorkspace once, then the kernel's
//     process table and NSRunningApplication per new process, because AppKit refreshes its lists
//     only on turns of a main run loop that a Go program does not run.
//
//   - input_darwin.go synthesises clicks, key combinations and text with CGEvent, and
//     front_darwin.go makes the calls front.go decides over (activateWithOptions:, AXFrontmost).
//
//   - callbacks_darwin.go makes the only two C callbacks, once; runloop_darwin.go runs a CFRunLoop
//     on a goroutine locked to its thread, with work handed to it through a signalled source;
//     watch_darwin.go and appobserver_darwin.go are Watch: one AXObserver per app on that run
//     loop, its notifications queued without blocking and turned into events by a worker per app,
//     and a poller for app launch and exit.
//
//   - screen_darwin.go reads the screen (CGWindowListCreateImage, after the Screen Recording
//     check); windowops_darwin.go moves, resizes, closes, raises and minimizes windows (AXPosition,
//     AXSize, AXCloseButton, AXRaise, AXMinimized); launch_darwin.go starts and ends apps
//     (NSWorkspace, NSRunningApplication); clipboard_darwin.go is the general NSPasteboard's text.
//
// errors_darwin.go maps AX failures onto observer errors, telling an app that exited from a busy
// one by whether its process still exists.
package ax
