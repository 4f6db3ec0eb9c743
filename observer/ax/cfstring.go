package ax

import "unsafe"

// How Go strings cross into and out of CFString, apart from the calls themselves (cf_darwin.go).

const (
	// maxUTF8PerUTF16 is the most UTF-8 one UTF-16 unit of a CFString takes: 3 bytes (a surrogate
	// pair takes 4 for its 2 units; a lone surrogate, replaced by cfLossByte, 1).
	maxUTF8PerUTF16 = 3
	// cfLossByte replaces what UTF-8 cannot carry (a lone surrogate, as a truncated title may hold).
	// With 0 CFStringGetBytes would stop there, cutting the string short.
	cfLossByte = '?'
)

// emptyBytes is where the bytes of "" are: CFStringCreateWithBytes takes a valid pointer even
// for no bytes, and the data of an empty Go string may be nil.
var emptyBytes [1]byte

// stringBytes points at s's bytes, never nil. CoreFoundation copies them.
func stringBytes(s string) *byte {
	if len(s) == 0 {
		return &emptyBytes[0]
	}
	return unsafe.StringData(s)
}

// copyUTF8 copies a string of n UTF-16 units out as UTF-8 through convert, one CFStringGetBytes
// from unit `from` to the end into buf that returns the units it converted and the bytes it
// wrote. The buffer holds the longest UTF-8 n units can make, so one call converts everything;
// should a call stop short anyway, the next goes on from there, and one that converts nothing
// ends the copy rather than loop.
func copyUTF8(n int64, convert func(from int64, buf []byte) (units, written int64)) string {
	if n <= 0 {
		return ""
	}
	buf := make([]byte, n*maxUTF8PerUTF16)
	var used int64
	for from := int64(0); from < n && used < int64(len(buf)); {
		units, written := convert(from, buf[used:])
		if units <= 0 {
			break
		}
		from, used = from+units, used+written
	}
	return string(buf[:used])
}
