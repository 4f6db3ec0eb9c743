package bus

import (
	"time"

	"github.com/axbus/axbus/observer"
)

// The request and reply types of the endpoints. Their JSON Schemas in package schemas are the
// contract; a test checks that every reply the service sends matches its schema.

// AppsRequest asks for the running apps.
type AppsRequest struct{}

// AppsReply lists the running apps.
type AppsReply struct {
	Apps []observer.App `json:"apps"`
}

// AppTarget names an app by name or pid.
type AppTarget struct {
	App string `json:"app,omitempty"`
	PID int    `json:"pid,omitempty"`
}

// Query is the observer's form of the target.
func (t AppTarget) Query() observer.AppQuery { return observer.AppQuery{Name: t.App, PID: t.PID} }

// WindowsRequest asks for an app's windows.
type WindowsRequest struct {
	AppTarget
}

// WindowsReply lists an app's windows.
type WindowsReply struct {
	App     observer.AppRef   `json:"app"`
	Windows []observer.Window `json:"windows"`
}

// InspectRequest asks for an inspection of one window, or of one element's subtree (Scope:
// "SNAPSHOT:ELEMENT", which names its app and window itself).
type InspectRequest struct {
	AppTarget
	Window string `json:"window,omitempty"`
	Scope  string `json:"scope,omitempty"`
}

// StatusRequest asks for the daemon's health.
type StatusRequest struct{}

// StatusReply is the daemon's health.
type StatusReply struct {
	Host    string         `json:"host"`
	Version string         `json:"version"`
	Backend string         `json:"backend"`
	Started time.Time      `json:"started"`
	Events  PublisherStats `json:"events"`
	// Snaps counts the polled snapshot diffs and lists the apps polled; absent when polling is off.
	Snaps     *SnapStatus   `json:"snaps,omitempty"`
	Snapshots SnapshotStats `json:"snapshots"`
	Stream    string        `json:"stream"`
	// Listen is how clients reach the daemon; absent when the service was not told (WithListen).
	Listen *ListenStatus `json:"listen,omitempty"`
}

// ListenStatus describes the daemon's client listener in status.
type ListenStatus struct {
	// URL is what a client on the daemon's machine connects to (nats:// or tls://).
	URL string `json:"url"`
	// Address is the address the listener is bound to ("[::]:4228": every interface).
	Address string `json:"address"`
	// Loopback says that only the daemon's machine can connect.
	Loopback bool `json:"loopback"`
	// TLS says that the listener requires TLS.
	TLS bool `json:"tls"`
	// InsecureRemote says that other machines can connect without TLS (--insecure-remote).
	InsecureRemote bool `json:"insecure_remote"`
}

// SnapshotStats describes the snapshot store.
type SnapshotStats struct {
	Count int `json:"count"`
	Bytes int `json:"bytes"`
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
}
