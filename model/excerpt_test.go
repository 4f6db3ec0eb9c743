package model

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExcerptCutsOnACharacterAndSaysSo(t *testing.T) {
	if got := Excerpt("short"); got != "short" {
		t.Fatalf("a short input is kept whole: %q", got)
	}
	long := strings.Repeat("é", 900) // 2 bytes each: the cuts fall mid-character
	got := Excerpt("a" + long + " is bad")
	mark := "…[cut: 1808 bytes]…"
	if !utf8.ValidString(got) || !strings.Contains(got, mark) || !strings.HasPrefix(got, "aé") || !strings.HasSuffix(got, "é is bad") ||
		len(got) > MaxEcho+len(mark)+2 {
		t.Fatalf("got %q", got)
	}
	e := Errorf(CodeBadRequest, "Try again.", "bad id %q", strings.Repeat("x", 900<<10)).With("id", strings.Repeat("y", 5000))
	if len(e.Message) > 300 || !strings.Contains(e.Message, "[cut: 921600 bytes]") {
		t.Fatalf("Errorf echoes %d bytes: %.300s", len(e.Message), e.Message)
	}
	b := e.Bounded()
	if s := b.Details["id"].(string); len(s) > 300 || len(e.Details["id"].(string)) != 5000 {
		t.Fatalf("Bounded cuts the details of a copy only: %d / %d", len(s), len(e.Details["id"].(string)))
	}
	huge := &Error{Code: CodeInternal, Message: strings.Repeat("m", 1<<20), Suggestion: "s"}
	if len(huge.Bounded().Message) > maxMessage+40 {
		t.Fatalf("a message built by hand is bounded at the edge too")
	}
}
