package ocr

import "github.com/axbus/axbus/observer"

// Default is the text recognition of this machine: Tesseract when it is installed, else nil
// (an untyped nil: screen.Recognize tells it apart, a nil *Tesseract it would not).
func Default() observer.TextRecognizer {
	if t := Find(); t != nil {
		return t
	}
	return nil
}
