package api

import "github.com/axbus/axbus/model"

// LaunchRequest asks to start an app and to answer once it is in the accessibility tree: a
// desktop entry or app by Entry (Linux: its id or Name; macOS: a bundle id or name), or a
// program and its arguments by Command (run without a shell; only an admin may). TimeoutMS
// bounds the wait for it to register (default 30 s).
type LaunchRequest struct {
	Entry     string   `json:"entry,omitempty"`
	Command   []string `json:"command,omitempty"`
	TimeoutMS int      `json:"timeout_ms,omitempty"`
}

// LaunchReply is the app as it registered, and how long that took.
type LaunchReply struct {
	App model.App `json:"app"`
	// PID is the process the launch started; the app's pid differs when it handed over to
	// another process (a launcher, a running instance).
	PID          int     `json:"pid"`
	RegisteredMS float64 `json:"registered_ms"`
}

// QuitRequest asks an app to quit as its user would (its windows closed; it may ask to save
// first), or with Force at once; the reply comes once it has ended (TimeoutMS, default 5 s).
type QuitRequest struct {
	AppTarget
	Force     bool `json:"force,omitempty"`
	TimeoutMS int  `json:"timeout_ms,omitempty"`
}

// QuitReply is the app that ended, and how long it took.
type QuitReply struct {
	App     model.AppRef `json:"app"`
	Forced  bool         `json:"forced,omitempty"`
	EndedMS float64      `json:"ended_ms"`
}
