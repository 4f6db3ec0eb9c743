package model

import "strconv"

// App is a running application as the observer knows it.
type App struct {
	PID  int    `json:"pid"`
	Name string `json:"name"`
	// ID is the bundle id on macOS or the toolkit's application id on Linux, when there is one.
	ID      string `json:"id,omitempty"`
	Toolkit string `json:"toolkit,omitempty"`
	// Generation identifies this instance of the app: it grows whenever a pid is reused or an app
	// relaunches, so a snapshot taken from an earlier instance is refused instead of acted on.
	Generation uint64 `json:"generation"`
	Active     bool   `json:"active,omitempty"`
	// Instance is the backend's identity of the process (a D-Bus unique name, a launch date), used
	// to notice pid reuse. It is not part of the public API.
	Instance string `json:"-"`
}

// Ref is the short form of the app that travels in events and replies.
func (a App) Ref() AppRef {
	return AppRef{Name: a.Name, PID: a.PID, ID: a.ID, Generation: a.Generation}
}

// AppRef names an app instance in events, snapshots and replies.
type AppRef struct {
	Name       string `json:"name"`
	PID        int    `json:"pid"`
	ID         string `json:"id,omitempty"`
	Generation uint64 `json:"generation"`
}

// Window is a top-level window of an app.
type Window struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Role    Role   `json:"role"`
	Bounds  *Rect  `json:"bounds,omitempty"`
	Focused bool   `json:"focused,omitempty"`
	Modal   bool   `json:"modal,omitempty"`
	// Minimized windows are iconified: listed, but not on screen.
	Minimized bool    `json:"minimized,omitempty"`
	Ref       NodeRef `json:"-"`
}

// WindowRef names a window in events, snapshots and replies.
type WindowRef struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// RefOf is the short form of w.
func (w Window) RefOf() WindowRef { return WindowRef{ID: w.ID, Title: w.Title} }

// AppQuery names an app by pid or by name. A name matches exactly (case-insensitive) first,
// then as a unique prefix, then as a unique substring; an id (bundle id) matches exactly.
type AppQuery struct {
	Name string `json:"app,omitempty"`
	PID  int    `json:"pid,omitempty"`
}

func (q AppQuery) String() string {
	if q.PID > 0 {
		return "pid " + strconv.Itoa(q.PID)
	}
	return "app " + `"` + q.Name + `"`
}
