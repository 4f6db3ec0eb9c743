package model

import (
	"strings"
	"time"
)

// DefaultLaunchWait is how long a launch waits for the app to appear in the accessibility tree,
// and QuitWait how long a quit waits for it to end, unless the request says otherwise.
const (
	DefaultLaunchWait = 30 * time.Second
	QuitWait          = 5 * time.Second
)

// LaunchSpec names the app to start: Entry (Linux: a desktop entry's id, "org.gnome.Calculator"
// or "gedit.desktop", or its Name; macOS: a bundle id or an app's name) or Command (Linux: a
// program and its arguments, run without a shell).
type LaunchSpec struct {
	Entry   string
	Command []string
}

// Check says why s names nothing to start, or nil.
func (s LaunchSpec) Check() error {
	switch {
	case s.Entry == "" && len(s.Command) == 0:
		return Errorf(CodeBadRequest, `Name a desktop entry or app (entry: "org.gnome.Calculator"), or a command (command: ["gedit", "notes.txt"]).`,
			"a launch names nothing to start")
	case s.Entry != "" && len(s.Command) > 0:
		return Errorf(CodeBadRequest, "Give an entry or a command, not both.", "a launch names both an entry and a command")
	case len(s.Command) > 0 && strings.TrimSpace(s.Command[0]) == "":
		return Errorf(CodeBadRequest, "Give the program as the command's first word.", "a launch's command has no program")
	}
	return nil
}

// Launched is a process a launch started: its app is the one with PID, or, when the process
// hands over to another one (a launcher script, a single-instance app), a newly registered app
// called one of Names.
type Launched struct {
	PID   int
	Names []string
	// Ended, when not nil, gets the process's exit (nil for a clean one: a launcher that handed
	// over) and is closed: a launch that fails says so at once rather than at its timeout.
	Ended <-chan error
}

// Owns reports whether app is the one the launch started. An app that was running before the
// launch (known) is only taken by its pid.
func (l Launched) Owns(app App, known bool) bool {
	if l.PID > 0 && app.PID == l.PID {
		return true
	}
	if known {
		return false
	}
	for _, n := range l.Names {
		if n != "" && (strings.EqualFold(app.Name, n) || strings.EqualFold(app.ID, n)) {
			return true
		}
	}
	return false
}
