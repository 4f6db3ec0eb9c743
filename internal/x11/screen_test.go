package x11

import (
	"bytes"
	"testing"
)

// X pixels come in the server's byte order, 0x00RRGGBB: least significant byte first they read
// B G R X, most significant first X R G B. Either way the image is R G B, opaque.
func TestCopyPixels(t *testing.T) {
	for name, tc := range map[string]struct {
		src      []byte
		lsbFirst bool
	}{
		"LSB first": {[]byte{0x30, 0x20, 0x10, 0x00, 0x03, 0x02, 0x01, 0x00}, true},
		"MSB first": {[]byte{0x00, 0x10, 0x20, 0x30, 0x00, 0x01, 0x02, 0x03}, false},
	} {
		dst := make([]byte, len(tc.src))
		copyPixels(dst, tc.src, tc.lsbFirst)
		if want := []byte{0x10, 0x20, 0x30, 0xff, 0x01, 0x02, 0x03, 0xff}; !bytes.Equal(dst, want) {
			t.Errorf("%s: % x, want % x", name, dst, want)
		}
	}
}
