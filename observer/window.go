package observer

import (
	"context"
	"math"
)

// WindowOp is what ChangeWindow does to a window.
type WindowOp string

// The window operations.
const (
	WindowMove   WindowOp = "move"   // to (X, Y), its top-left corner in global coordinates
	WindowResize WindowOp = "resize" // to W x H
	WindowClose  WindowOp = "close"  // as its close button does: the app may ask first, or quit
)

// WindowChange is one operation on a window.
type WindowChange struct {
	Op         WindowOp
	X, Y, W, H float64
}

// WindowChanger is implemented by backends that can move, resize and close windows (X11
// requests on Linux).
type WindowChanger interface {
	ChangeWindow(ctx context.Context, pid int, win Window, ch WindowChange) error
}

// Shows reports whether the window as read again (nil: gone) shows ch done (within a pixel).
func (ch WindowChange) Shows(w *Window) bool {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1 }
	switch ch.Op {
	case WindowClose:
		return w == nil
	case WindowMove:
		return w != nil && w.Bounds != nil && near(w.Bounds.X, ch.X) && near(w.Bounds.Y, ch.Y)
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
	case ch.Op != WindowMove && ch.Op != WindowResize && ch.Op != WindowClose:
		return Errorf(CodeBadRequest, "Use op move, resize or close.", "unknown window op %q", ch.Op)
	}
	return nil
}
