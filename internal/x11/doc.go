// Package x11 is the desktop's X server as the Linux backend acts on it: the top-level windows of
// a process (by _NET_WM_PID) and where they are, the window under a point, an app's window given
// the input focus and raised, windows moved, resized, iconified, restored and closed as a window
// manager would (or asked of the one that runs), input synthesised through XTEST (clicks, keys,
// typing through the keyboard map, binding the keysyms it lacks), the screen read with GetImage,
// and the CLIPBOARD selection served and read on a connection of its own (ICCCM 2); what a person
// does with the mouse and keyboard is recorded through the RECORD extension (OpenRecorder).
//
// It knows nothing of AT-SPI: observer/atspi matches accessible windows with these and turns the
// requests of the observer into these calls.
//
//	x, err := x11.Dial(display, xauthority) // the session's cookie, whatever $XAUTHORITY says
//	if err != nil {
//		return err
//	}
//	defer x.Close()
//	wins, err := x.WindowsOf(pid) // bottom to top
//	if err == nil && len(wins) > 0 {
//		x.Activate(wins[len(wins)-1])
//	}
//	err = x.Click(pid, 100, 200, 1, 1) // its window under the point focused first
//
// What X answers is an *model.Error with the code and suggestion a user needs (a screen not
// at depth 24, a text the keyboard map cannot type, a clipboard owner that does not answer); a
// failure to connect is returned as it is, for the caller to say what it needed the display for.
package x11
