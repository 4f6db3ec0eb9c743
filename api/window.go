package api

import "github.com/axbus/axbus/model"

// WindowRequest asks to move (x, y: the top-left corner, global coordinates), resize (w, h) or
// close an app's window (as inspect picks it: the focused one by default).
type WindowRequest struct {
	AppTarget
	Window string `json:"window,omitempty"`
	Op     string `json:"op"`
	// X, Y (move) and W, H (resize) are pointers: 0 is a place, and an op takes only its own.
	X *float64 `json:"x,omitempty"`
	Y *float64 `json:"y,omitempty"`
	W *float64 `json:"w,omitempty"`
	H *float64 `json:"h,omitempty"`
}

// WindowReply is the window before and, read again after the change, after it (none: closed).
type WindowReply struct {
	App    model.AppRef  `json:"app"`
	Before model.Window  `json:"before"`
	After  *model.Window `json:"after,omitempty"`
	Closed bool          `json:"closed,omitempty"`
}
