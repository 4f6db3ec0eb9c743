package api

import "github.com/axbus/axbus/model"

// The requests and replies of the observing endpoints. Their JSON Schemas in package schemas
// are the contract; a test checks that every reply the service sends matches its schema.

// AppsRequest asks for the running apps.
type AppsRequest struct{}

// AppsReply lists the running apps.
type AppsReply struct {
	Apps []model.App `json:"apps"`
}

// AppTarget names an app by name or pid.
type AppTarget struct {
	App string `json:"app,omitempty"`
	PID int    `json:"pid,omitempty"`
}

// Query is the observer's form of the target.
func (t AppTarget) Query() model.AppQuery { return model.AppQuery{Name: t.App, PID: t.PID} }

// WindowsRequest asks for an app's windows.
type WindowsRequest struct {
	AppTarget
}

// WindowsReply lists an app's windows.
type WindowsReply struct {
	App     model.AppRef   `json:"app"`
	Windows []model.Window `json:"windows"`
}

// InspectRequest asks for an inspection of one window, or of one element's subtree (Scope:
// "SNAPSHOT:ELEMENT", which names its app and window itself).
type InspectRequest struct {
	AppTarget
	Window string `json:"window,omitempty"`
	Scope  string `json:"scope,omitempty"`
	// OCR adds the text recognised in a screenshot of the window (recognized_text).
	OCR bool `json:"ocr,omitempty"`
	// Locators gives each listed element the locator that finds it alone in its window.
	Locators bool `json:"locators,omitempty"`
}

// SnapshotRequest asks for the listing of a stored snapshot again, whole or from one element.
type SnapshotRequest struct {
	SnapshotID string `json:"snapshot_id"`
	Element    string `json:"element,omitempty"`
}

// ReadRequest asks for the text of a window, or of one element's subtree (Scope).
type ReadRequest struct {
	AppTarget
	Window string `json:"window,omitempty"`
	Scope  string `json:"scope,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	// All reads hidden elements too (closed menus, hidden pages), which a read leaves out.
	All bool `json:"all,omitempty"`
}
