package observer

import "time"

// PersonInput is one thing a person did with the mouse or keyboard, as an InputWatcher hears
// it: a button pressed at a point of the screen (global coordinates, as Rect), or a key pressed.
type PersonInput struct {
	Time   time.Time
	Key    bool // a key; else a button
	Button int  // 1 left, 2 middle, 3 right
	X, Y   float64
	// Text is the character a key types ("" for others, and with ctrl, alt or super held); Name
	// its name ("a", "Return", "F5"); Mods the modifiers held ("shift", "ctrl", "alt", "super").
	Text string
	Name string
	Mods []string
}
