package api

import "github.com/axbus/axbus/model"

// WebAccessibilityRequest claims (on) or releases (off) an app's web accessibility for an agent.
type WebAccessibilityRequest struct {
	AppTarget
	// On claims it for the identity that asks (api.IdentityOf), not for a name the request gives.
	On bool `json:"on"`
}

// WebAccessibilityReply is the ledger after the request.
type WebAccessibilityReply struct {
	App    model.AppRef        `json:"app"`
	Ledger []model.LedgerEntry `json:"ledger"`
}
