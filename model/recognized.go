package model

// RecognizedFrom labels recognised text: it comes from pixels, not from the accessibility tree,
// and may be wrong.
const RecognizedFrom = "pixels (OCR): may be wrong; the accessibility tree is the source of truth"

// RecognizedText is the text recognised in an image (observer/screen's Recognize), line by
// line, ordered by row then left to right. A failure is Error, never a failed observation.
type RecognizedText struct {
	From  string           `json:"from"`
	Lines []RecognizedLine `json:"lines"`
	// Truncated says why lines were left out (the line, byte or time limit).
	Truncated string `json:"truncated,omitempty"`
	Error     *Error `json:"error,omitempty"`
}

// RecognizedLine is one line of recognised text: its confidence (0 to 1) and its box as
// fractions of the image, from its top-left corner.
type RecognizedLine struct {
	Text       string  `json:"text"`
	Confidence float64 `json:"confidence"`
	Box        Rect    `json:"box"`
}
