package api

import (
	"bytes"
	"crypto/sha256"
	hexenc "encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBoundedCutsLongTexts: a value of 1,040,000 characters makes an envelope of a few KiB, with
// its whole length and digest; the event given is not changed, and the encoding is json.Marshal's.
func TestBoundedCutsLongTexts(t *testing.T) {
	long := strings.Repeat("é", 520_000) // 1,040,000 bytes, two per character
	env := sampleEnvelope()
	env.Element.Value, env.Window.Title = long, long
	env.Detail = map[string]any{"announcement": long, "offset": 3}
	before := *env.Element
	ev, cuts := Bounded(env.Event)
	if env.Element.Value != before.Value || env.Window.Title != long || env.Detail["announcement"] != long {
		t.Fatal("Bounded changed the event it was given")
	}
	env.Event, env.Cut = ev, cuts
	sum := sha256.Sum256([]byte(long))
	fields := map[string]bool{}
	for _, c := range cuts {
		fields[c.Field] = true
		if c.Length != len(long) || c.SHA256 != hexenc.EncodeToString(sum[:]) {
			t.Errorf("cut %+v, want length %d and the whole's digest", c, len(long))
		}
	}
	if len(cuts) != 3 || !fields["element.value"] || !fields["window.title"] || !fields["detail.announcement"] {
		t.Errorf("cuts %+v, want element.value, window.title and detail.announcement", cuts)
	}
	if v := ev.Element.Value; len(v) > MaxEventText || !utf8.ValidString(v) || !strings.HasPrefix(long, v) || len(v) < MaxEventText-4 {
		t.Errorf("the value kept is %d bytes (valid %v), want the whole's first %d at most", len(v), utf8.ValidString(v), MaxEventText)
	}
	got, err := env.AppendJSON(nil)
	want, _ := json.Marshal(&env)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("AppendJSON:\n%s (%v)\njson.Marshal:\n%s", got, err, want)
	}
	if len(got) > 16<<10 {
		t.Errorf("the envelope is %d bytes, want a few KiB", len(got))
	}
	t.Logf("a value of %d bytes: an envelope of %d bytes", len(long), len(got))
	if _, cuts := Bounded(sampleEnvelope().Event); cuts != nil {
		t.Errorf("a short event was cut: %+v", cuts)
	}
}
