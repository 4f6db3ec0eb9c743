package observer

import (
	"context"
	"image"

	"github.com/axbus/axbus/model"
)

// The optional capabilities of a backend, each an interface a Backend may implement besides its
// own; callers find them with a type assertion, and a backend without one lacks the feature (a
// NOT_SUPPORTED reply) or is served another way (a slower read). Each backend asserts all it
// implements in one file (capabilities*.go of observer/atspi, observer/ax, observer/sim).

// BoundsReader is implemented by backends that can read elements' bounds alone, much more
// cheaply than Read. The visible-clip walk uses it to find which children of a long list are on
// screen before reading any of them in full.
type BoundsReader interface {
	ReadBounds(ctx context.Context, refs []model.NodeRef) []model.Bounds
}

// ChildKnower is implemented by backends that know, without asking the app, which children an
// element had when last read and that nothing has changed them since (a watched toolkit says
// when they change). The walk reads those children in the same batch as their parent, one
// round trip for several levels; a guess the parent's read contradicts is dropped.
type ChildKnower interface {
	KnownChildren(ref model.NodeRef) []model.NodeRef
}

// HitTester is implemented by backends that can tell which element is at a point of the screen:
// the "not covered" check of actionability before physical input lands there.
type HitTester interface {
	// HitPath lists the elements at (x, y), in global screen coordinates (as Rect), from the
	// top of the window that shows the point down to the deepest element there, as the platform
	// hit-tests (AT-SPI: Component.GetAccessibleAtPoint from window down; macOS:
	// AXUIElementCopyElementAtPosition, then its parents). An element covered by another is not
	// on the path; an empty path means nothing of window's is at the point.
	HitPath(ctx context.Context, window model.NodeRef, x, y float64) ([]model.NodeRef, error)
}

// TextReader is implemented by backends whose Read leaves out the text of elements whose name
// says the same (a label's accessible name is its text), to save calls. ReadWithText reads the
// text of every text element too: reading a window's text needs it.
type TextReader interface {
	ReadWithText(ctx context.Context, refs []model.NodeRef) []model.Node
}

// ChainProvider is a Backend that declares its chains.
type ChainProvider interface {
	Chains() Chains
}

// PlatformRoler is a backend that knows its platform's role names ("push button", "AXButton"):
// a condition naming a role that is neither normalised nor one of them is refused at once
// rather than waited for in vain.
type PlatformRoler interface {
	PlatformRoles() []string
}

// RecheckGate is a backend that re-reads some apps on its own, because their toolkit misses
// notifications (GTK4), and lets its owner say which apps are worth that work and how often:
// fast while a wait or an expect is pending on the app (its reply waits on the re-read), slow
// while someone else observes it, never when no one does. Without a gate every such app is
// re-read slowly.
type RecheckGate interface {
	RecheckWhen(rate func(model.App) Recheck)
}

// ScreenReader is implemented by backends that can read the screen's pixels (X11 GetImage,
// CoreGraphics): the screenshot endpoint.
type ScreenReader interface {
	// ScreenBounds is the whole display, in global screen coordinates (as Rect).
	ScreenBounds(ctx context.Context) (model.Rect, error)
	// Capture reads the pixels of rect (global coordinates, inside ScreenBounds) as shown.
	Capture(ctx context.Context, rect model.Rect) (*image.RGBA, error)
}

// ResourceReporter is implemented by backends that can say what they hold now, per kind, by
// their own names: connections, match rules, apps watched, workers, cached elements... The
// status endpoint reports it, and a soak checks that what an app cost returns once it is gone.
// It must be cheap (status is polled): counts of what is held, never a call to an app.
type ResourceReporter interface {
	Resources() map[string]int
}

// WindowChanger is implemented by backends that can move, resize, close, raise and minimize
// windows (X11 requests on Linux, the AX API on macOS).
type WindowChanger interface {
	ChangeWindow(ctx context.Context, pid int, win model.Window, ch model.WindowChange) error
}

// AppLauncher is implemented by backends that start and end apps (a desktop entry or a command
// on Linux; NSWorkspace and NSRunningApplication on macOS).
type AppLauncher interface {
	// Launch starts the app and returns at once; the caller waits for it to register.
	Launch(ctx context.Context, spec model.LaunchSpec) (model.Launched, error)
	// Quit asks app to end as its user would (its windows closed, or the platform's quit), or,
	// with force, ends it at once (SIGKILL, forceTerminate). It returns once asked; the caller
	// waits for the app to end.
	Quit(ctx context.Context, app model.App, force bool) error
}

// Clipboard is implemented by backends that read and write the system clipboard's text (the X11
// CLIPBOARD selection, NSPasteboard). Text only: other content is never read or written.
type Clipboard interface {
	// ReadClipboard returns the clipboard's text; has is false when the clipboard is empty. A
	// clipboard that holds something other than text is NOT_SUPPORTED.
	ReadClipboard(ctx context.Context) (text string, has bool, err error)
	// WriteClipboard makes text the clipboard's content ("" with has false empties it). taken
	// watches for a paste: its channel is closed once an app takes the text after taken was
	// called (apps may fetch a clipboard the moment it changes, before any paste), or, where the
	// platform cannot tell, once a paste had time to take it.
	WriteClipboard(ctx context.Context, text string, has bool) (taken func() <-chan struct{}, err error)
}

// WebAccessibility is a backend that can switch an app's web accessibility on and off: the
// accessibility tree Chromium and Electron apps build only when asked (macOS
// AXManualAccessibility, then AXEnhancedUserInterface, on the app element).
type WebAccessibility interface {
	// SetWebAccessibility switches it and reports whether it was on before.
	SetWebAccessibility(ctx context.Context, pid int, on bool) (was bool, err error)
}

// TextRecognizer recognises the lines of text in a PNG, with boxes in the image's pixels. It is
// no backend's but a text recognition engine's (observer/ocr: Tesseract, Vision), given to the
// service beside the backend; observer/screen runs it within its limits.
type TextRecognizer interface {
	Recognize(ctx context.Context, png []byte) ([]model.RecognizedLine, error)
}

// InputWatcher is a backend that hears what a person does with the mouse and keyboard (Linux:
// the X server's RECORD extension; macOS: a listen-only CGEventTap), which a recording of a
// person's session is made of.
type InputWatcher interface {
	// WatchInput delivers each button and key press, on a goroutine of its own, until stop.
	WatchInput(fn func(PersonInput)) (stop func(), err error)
	// ElementAt is the deepest element at a point of the screen in the top-most window there,
	// with its app and that window.
	ElementAt(ctx context.Context, x, y float64) (model.App, model.Window, model.NodeRef, error)
}
