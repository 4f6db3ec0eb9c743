package api

import "github.com/axbus/axbus/observer"

// WebAccessibilityRequest claims (on) or releases (off) an app's web accessibility for an agent.
type WebAccessibilityRequest struct {
	AppTarget
	On    bool   `json:"on"`
	Agent string `json:"agent"`
}

// WebAccessibilityReply is the ledger after the request.
type WebAccessibilityReply struct {
	App    observer.AppRef        `json:"app"`
	Ledger []observer.LedgerEntry `json:"ledger"`
}
