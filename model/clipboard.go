package model

// MaxClipboardText is the most text the clipboard endpoint and the paste fallback move at once:
// it fits one X property change without the INCR protocol.
const MaxClipboardText = 200 << 10

// CheckClipboardText says why text cannot go on the clipboard, or nil.
func CheckClipboardText(text string) error {
	if len(text) > MaxClipboardText {
		return Errorf(CodeBadRequest, "Put at most 200 KiB of text on the clipboard at once.",
			"clipboard text too long (%d bytes)", len(text))
	}
	return nil
}
