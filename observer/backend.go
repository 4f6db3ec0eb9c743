package observer

import (
	"context"

	"github.com/axbus/axbus/model"
)

// Backend is one platform's access to the accessibility tree. Implementations live under
// observer/<platform>/ and must be safe for concurrent use.
//
// Errors are *Error values with the codes of this package (APP_GONE, TRANSIENT, NOT_SUPPORTED,
// ELEMENT_NOT_FOUND, PERMISSION_DENIED, ...), each with a suggestion.
type Backend interface {
	// Platform names the backend as --backend does ("atspi", "ax") for status and the service's
	// metadata; the simulated desktop names the one it imitates. It chooses nothing: a backend's
	// action chains are its Chains (ChainProvider).
	Platform() string

	// Apps lists the running apps that expose an accessibility tree. Generation is left zero: the
	// observer assigns it from PID and Instance.
	Apps(ctx context.Context) ([]model.App, error)

	// Windows lists an app's top-level windows, dialogs and sheets.
	Windows(ctx context.Context, pid int) ([]model.Window, error)

	// Read reads many elements at once and returns one Node per ref, in order. Implementations
	// pipeline the calls rather than making one round trip at a time. A ref that cannot be read
	// gets a Node with Err set; a cancelled ctx ends the read promptly.
	Read(ctx context.Context, refs []model.NodeRef) []model.Node

	// FocusPath returns the handles from the app's root down to its focused element, or nil
	// when nothing in the app has focus.
	FocusPath(ctx context.Context, pid int) ([]model.NodeRef, error)

	// Watch delivers normalised events to sink until stop is called. sink must not block: the
	// observer's subscribers run in it, and they only queue. App launch and exit are reported as
	// events too.
	Watch(sink func(model.Event)) (stop func(), err error)

	// Perform invokes a named platform action on an element ("AXPress", "click", "activate").
	Perform(ctx context.Context, ref model.NodeRef, action string) error

	// SetAttribute sets a platform attribute of an element ("AXValue", "AXFocused", "text",
	// "value", "focus"); value is a string, float64 or bool.
	SetAttribute(ctx context.Context, ref model.NodeRef, attr string, value any) error

	// Input synthesises physical input (a pointer click, key strokes). It is used only when the
	// caller asked for physical input.
	Input(ctx context.Context, in Input) error

	// Close releases the backend's connections.
	Close() error
}

// InputKind is the kind of physical input.
type InputKind string

// The kinds of physical input.
const (
	InputClick InputKind = "click" // a pointer click at (X, Y)
	InputType  InputKind = "type"  // typing Text
	InputKey   InputKind = "key"   // a key combination such as "ctrl+s"
)

// Input is one piece of physical input, delivered to the app PID (its window is raised first
// where the platform needs that).
type Input struct {
	Kind   InputKind
	PID    int
	X, Y   float64
	Button int // 1 left, 2 middle, 3 right
	Count  int // clicks; 0 means 1
	Text   string
	Keys   string
}

// ErrInputKind is physical input of a kind no backend knows.
func ErrInputKind(kind InputKind) *model.Error {
	return model.Errorf(model.CodeBadRequest, "Use click, type or key.", "unknown input kind %q", kind)
}
