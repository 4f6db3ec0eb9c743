package observer

import "context"

// MaxClipboardText is the most text the clipboard endpoint and the paste fallback move at once:
// it fits one X property change without the INCR protocol.
const MaxClipboardText = 200 << 10

// Clipboard is implemented by backends that read and write the system clipboard's text (the X11
// CLIPBOARD selection, NSPasteboard). Text only: other content is never read or written.
type Clipboard interface {
	// ReadClipboard returns the clipboard's text; has is false when the clipboard is empty. A
	// clipboard that holds something other than text is NOT_SUPPORTED.
	ReadClipboard(ctx context.Context) (text string, has bool, err error)
	// WriteClipboard makes text the clipboard's content ("" with has false empties it). taken
	// watches for a paste: its channel is closed once an app takes the text after taken was
	// called (apps may fetch a clipboard the moment it changes, before any paste), or, where the
	// platform cannot tell, once a paste had time to take it.
	WriteClipboard(ctx context.Context, text string, has bool) (taken func() <-chan struct{}, err error)
}

// CheckClipboardText says why text cannot go on the clipboard, or nil.
func CheckClipboardText(text string) error {
	if len(text) > MaxClipboardText {
		return Errorf(CodeBadRequest, "Put at most 200 KiB of text on the clipboard at once.",
			"clipboard text too long (%d bytes)", len(text))
	}
	return nil
}
