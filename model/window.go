package model

import (
	"math"
	"slices"
)

// WindowOp is what ChangeWindow does to a window.
type WindowOp string

// The window operations.
const (
	WindowMove   WindowOp = "move"   // to (X, Y), its top-left corner in global coordinates
	WindowResize WindowOp = "resize" // to W x H
	WindowClose  WindowOp = "close"  // as its close button does: the app may ask first, or quit
	// WindowRaise brings the window to the front, restored if minimized, with the input focus:
	// what activating an app does to its window.
	WindowRaise    WindowOp = "raise"
	WindowMinimize WindowOp = "minimize" // iconified, as its minimize button does
)

// WindowOps lists the window operations.
var WindowOps = []WindowOp{WindowMove, WindowResize, WindowClose, WindowRaise, WindowMinimize}

// WindowChange is one operation on a window.
type WindowChange struct {
	Op         WindowOp
	X, Y, W, H float64
}

// Shows reports whether the window as read again (nil: gone) shows ch done (within a pixel).
func (ch WindowChange) Shows(w *Window) bool {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1 }
	switch ch.Op {
	case WindowClose:
		return w == nil
	case WindowMove:
		return w != nil && w.Bounds != nil && near(w.Bounds.X, ch.X) && near(w.Bounds.Y, ch.Y)
	case WindowRaise:
		return w != nil && w.Focused && !w.Minimized
	case WindowMinimize:
		return w != nil && w.Minimized
	default:
		return w != nil && w.Bounds != nil && near(w.Bounds.W, ch.W) && near(w.Bounds.H, ch.H)
	}
}

// Check says why ch cannot be done, or nil.
func (ch WindowChange) Check() error {
	switch {
	case ch.Op == WindowResize && (ch.W < 1 || ch.H < 1 || ch.W > 32767 || ch.H > 32767):
		return Errorf(CodeBadRequest, "Give a width and height from 1 to 32767.", "cannot resize a window to %vx%v", ch.W, ch.H)
	case ch.Op == WindowMove && (math.Abs(ch.X) > 32767 || math.Abs(ch.Y) > 32767):
		return Errorf(CodeBadRequest, "Give a position within ±32767.", "cannot move a window to (%v, %v)", ch.X, ch.Y)
	case !slices.Contains(WindowOps, ch.Op):
		return Errorf(CodeBadRequest, "Use op move, resize, close, raise or minimize.", "unknown window op %q", ch.Op)
	}
	return nil
}
