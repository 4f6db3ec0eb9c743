package model

import (
	"time"
)

// Inspection is the reply to an inspection: the snapshot's id and what it lists.
type Inspection struct {
	SnapshotID       string       `json:"snapshot_id"`
	App              AppRef       `json:"app"`
	Window           WindowRef    `json:"window"`
	Created          time.Time    `json:"created"`
	Budget           Budget       `json:"budget"`
	Truncated        bool         `json:"truncated"`
	Truncation       []Truncation `json:"truncation,omitempty"`
	Incomplete       bool         `json:"incomplete,omitempty"`
	OffscreenOmitted int          `json:"offscreen_omitted"`
	// Scope names the element the listing is the subtree of, when it was scoped.
	Scope *ScopeInfo `json:"scope,omitempty"`
	// Walked counts the elements the snapshot holds; Elements lists those of the listed subtree.
	Walked int `json:"walked"`
	// RecognizedText is the window's text recognised from its pixels, when asked (ocr).
	RecognizedText *RecognizedText `json:"recognized_text,omitempty"`
	Elements       []Element       `json:"elements"` // the last field: AppendJSON writes it
}

// Element is one listed element: a flat pre-order list whose parent and depth give the tree.
type Element struct {
	ID           string   `json:"id"`
	Parent       string   `json:"parent,omitempty"`
	Depth        int      `json:"depth"`
	Role         Role     `json:"role"`
	PlatformRole string   `json:"platform_role,omitempty"`
	Subrole      string   `json:"subrole,omitempty"`
	Name         string   `json:"name,omitempty"`
	Label        string   `json:"label,omitempty"`
	Description  string   `json:"description,omitempty"`
	Value        *string  `json:"value,omitempty"`
	Text         string   `json:"text,omitempty"`
	Identifier   string   `json:"identifier,omitempty"`
	Bounds       *Rect    `json:"bounds,omitempty"`
	States       States   `json:"states,omitempty"`
	Actions      []string `json:"actions,omitempty"`
	Secure       bool     `json:"secure,omitempty"`
	Children     int      `json:"children,omitempty"`
	// Locator finds this element alone in its window, when the inspection asked for locators.
	Locator string `json:"locator,omitempty"`
}

// ScopeInfo tells, in a reply, which element of which earlier snapshot the listing was scoped to
// and which element of the new snapshot it was found again as.
type ScopeInfo struct {
	From    string `json:"from,omitempty"` // absent when no earlier snapshot was named (a wait's listing root)
	Element string `json:"element"`
}
