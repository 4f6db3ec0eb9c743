package ocr

import "github.com/axbus/axbus/observer"

// Default is the text recognition of this Mac: Vision when the framework loads (every macOS from
// 10.15), else Tesseract when it is installed, else nil (an untyped nil: screen.Recognize
// tells it apart, a nil pointer in the interface it would not).
func Default() observer.TextRecognizer {
	if v, err := NewVision(); err == nil {
		return v
	}
	if t := Find(); t != nil {
		return t
	}
	return nil
}
