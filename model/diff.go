package model

import (
	"hash/fnv"
	"strconv"
	"time"
)

// Diff is one publication of the poller (observer/live's Poller) about an app's polled window:
// what was added, removed and changed since the previous Diff of the same app instance.
// Elements are named by Key, stable for an element's life, so a consumer keeps a map from key to
// element and applies each Diff to it.
type Diff struct {
	// Kind says how to apply the diff; see DiffKind.
	Kind DiffKind `json:"kind"`
	App  AppRef   `json:"app"`
	// Window is the polled window: the app's focused window, or the window focused last while
	// it stays open.
	Window WindowRef `json:"window"`
	Time   time.Time `json:"time"`
	// Elements counts the elements the poller holds for the window once this diff is applied:
	// a consumer holding another number has lost a diff and should wait for a reset.
	Elements int `json:"elements"`
	// Truncation lists what cut the full read behind a reset or resync short: elements beyond
	// the wide budget are not polled. In an events diff, truncated_count says that the copy is
	// full and elements that appeared were left out.
	Truncation []Truncation `json:"truncation,omitempty"`
	// Added lists new elements, parents before their children. In a reset it is the whole
	// window in pre-order.
	Added []DiffElement `json:"added,omitempty"`
	// Removed lists elements gone, each with its last known summary, parents before children:
	// removing an element removes its subtree, and every element of it is listed.
	Removed []DiffElement `json:"removed,omitempty"`
	// Changed lists elements whose summary changed, with the new summary and the changed
	// fields' old and new values.
	Changed []ChangedElement `json:"changed,omitempty"`
	// Reads counts the elements read to make this diff: what the cycle cost the app.
	Reads int `json:"reads"`
}

// DiffKind says what a Diff is relative to.
type DiffKind string

// The kinds of Diff.
const (
	// DiffReset replaces whatever a consumer held for the app: Added lists the whole window.
	// It comes first for an app and for each new consumer (see live.PollWhen), when the focused
	// window changes (a diff between two unrelated windows would be noise the size of both), and
	// after a diff was lost on the way.
	DiffReset DiffKind = "reset"
	// DiffEvents holds the changes found by re-reading what notifications named.
	DiffEvents DiffKind = "events"
	// DiffResync holds the changes a periodic full re-read found: those notifications missed.
	DiffResync DiffKind = "resync"
	// DiffGone says the polled window closed with no other focused, or the app exited: forget
	// the app's elements. Window names the window that was polled.
	DiffGone DiffKind = "gone"
)

// DiffElement is an element as a Diff shows it: its identity, its place and its summary.
type DiffElement struct {
	// Key identifies the element for its life within the app instance: a hash of the backend's
	// handle, so handles (object paths, pointers) stay out of payloads.
	Key string `json:"key"`
	// Parent is the key of the element's parent; empty for the window.
	Parent       string `json:"parent,omitempty"`
	Role         Role   `json:"role"`
	PlatformRole string `json:"platform_role,omitempty"`
	// Name is the accessible name, or the label when the element has no name.
	Name string `json:"name,omitempty"`
	// Value is the element's value as text; absent when it has none, and always for secure fields.
	Value *string `json:"value,omitempty"`
	// Text is a text element's content when it differs from Name; never for secure fields.
	Text   string `json:"text,omitempty"`
	States States `json:"states,omitempty"`
	// Bounds are in global screen coordinates, so moving a window changes every element's.
	Bounds *Rect `json:"bounds,omitempty"`
	// Ref is the element's handle, for in-process users of a cycle's changes (waits); never
	// published.
	Ref NodeRef `json:"-"`
}

// ChangedElement is an element whose summary changed: its new summary and what changed.
type ChangedElement struct {
	DiffElement
	// Changes maps each changed field (role, platform_role, name, value, text, states, bounds,
	// parent) to its old and new value, in the JSON form the field has in DiffElement (null for
	// an absent value or bounds).
	Changes map[string]FieldChange `json:"changes"`
}

// FieldChange is one field's value before and after a change.
type FieldChange struct {
	Old any `json:"old"`
	New any `json:"new"`
}

// ElementKey is the key under which a Diff names the element ref: short, stable while the
// element lives, and opaque.
func ElementKey(ref NodeRef) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(ref))
	return strconv.FormatUint(h.Sum64(), 36)
}
