package model

// ReadResult is the text of a window or subtree as observer/text reads it (see its Assemble for
// how it is laid out).
type ReadResult struct {
	App    AppRef    `json:"app"`
	Window WindowRef `json:"window"`
	Text   string    `json:"text"`
	Lines  int       `json:"lines"`
	Bytes  int       `json:"bytes"`
	// Truncated is set when the text is not all of it: Truncation says why, text_limit for the
	// byte limit and the walk's own cuts (truncated_depth|count|children|deadline, incomplete_read).
	Truncated  bool         `json:"truncated"`
	Truncation []Truncation `json:"truncation,omitempty"`
	// Omitted counts the text pieces the limit left out, wholly or in part.
	Omitted int `json:"omitted,omitempty"`
	// Elements counts the elements walked.
	Elements int `json:"elements"`
	// HiddenOmitted counts the hidden elements holding text that the read left out, each with its
	// subtree (a closed menu's items, a toolbar's overflow); All reads them.
	HiddenOmitted int `json:"hidden_omitted,omitempty"`
	// Hint is set when the text is empty: where else its text may be found.
	Hint string `json:"hint,omitempty"`
}
