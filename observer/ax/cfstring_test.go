package ax

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestStringBytesNeverNil(t *testing.T) {
	if stringBytes("") == nil {
		t.Error(`stringBytes("") is nil: CFStringCreateWithBytes needs a valid pointer`)
	}
	s := "AXValue"
	if p := stringBytes(s); p == nil || *p != 'A' {
		t.Errorf("stringBytes(%q) does not point at its bytes", s)
	}
}

// fakeGetBytes converts UTF-16 units to UTF-8 as CFStringGetBytes does: from a unit index into
// buf, a unit that UTF-8 cannot carry replaced by lossByte (with 0, the conversion stops there),
// stopping before a character that does not fit; at most limit units a call (0: no limit).
func fakeGetBytes(units []uint16, lossByte byte, limit int) func(from int64, buf []byte) (int64, int64) {
	return func(from int64, buf []byte) (int64, int64) {
		var done, written int
		for i := int(from); i < len(units); {
			if limit > 0 && done >= limit {
				break
			}
			var enc []byte
			n := 1
			switch u := rune(units[i]); {
			case utf16.IsSurrogate(u) && i+1 < len(units) && utf16.DecodeRune(u, rune(units[i+1])) != utf8.RuneError:
				enc, n = utf8.AppendRune(nil, utf16.DecodeRune(u, rune(units[i+1]))), 2
			case utf16.IsSurrogate(u):
				if lossByte == 0 {
					return int64(done), int64(written)
				}
				enc = []byte{lossByte}
			default:
				enc = utf8.AppendRune(nil, u)
			}
			if written+len(enc) > len(buf) {
				break
			}
			written += copy(buf[written:], enc)
			i, done = i+n, done+n
		}
		return int64(done), int64(written)
	}
}

func TestCopyUTF8(t *testing.T) {
	for _, tc := range []struct {
		name  string
		units []uint16
		want  string
	}{
		{"ascii", utf16.Encode([]rune("Save As…")), "Save As…"},
		{"three bytes a unit", utf16.Encode([]rune(strings.Repeat("日本語", 50))), strings.Repeat("日本語", 50)},
		{"surrogate pairs", utf16.Encode([]rune("😀 ok 🎉")), "😀 ok 🎉"},
		{"lone high surrogate", []uint16{'a', 0xD83D, 'b', 'c'}, "a?bc"},
		{"lone low surrogate at the end", []uint16{'x', 0xDE00}, "x?"},
		{"a title cut in a pair", append(utf16.Encode([]rune("Tab 日")), 0xD83D), "Tab 日?"},
		{"empty", nil, ""},
	} {
		for _, limit := range []int{0, 1, 3} {
			got := copyUTF8(int64(len(tc.units)), fakeGetBytes(tc.units, cfLossByte, limit))
			if got != tc.want {
				t.Errorf("%s (at most %d units a call): %q, want %q", tc.name, limit, got, tc.want)
			}
		}
	}
}

func TestCopyUTF8EndsOnAStall(t *testing.T) {
	calls := 0
	got := copyUTF8(5, func(int64, []byte) (int64, int64) { calls++; return 0, 0 })
	if got != "" || calls != 1 {
		t.Errorf("copyUTF8 = %q after %d calls, want \"\" after 1", got, calls)
	}
}
