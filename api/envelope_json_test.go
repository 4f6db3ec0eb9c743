package api

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/axbus/axbus/model"
)

func sampleEnvelope() Envelope {
	return Envelope{Host: "h1", Boot: "mh3k2", Seq: 42, Gap: 3, Event: model.Event{
		Time: time.Date(2026, 12, 2, 19, 56, 29, 220123816, time.UTC), Type: model.EventValueChanged, Raw: "object:text-changed:insert",
		App:    model.AppRef{Name: "Notes", PID: 4242, ID: "org.example.Notes", Generation: 2},
		Window: &model.WindowRef{ID: "w1", Title: "Untitled <draft> & \"more\""},
		Element: &model.ElementSummary{Role: model.RoleTextField, PlatformRole: "entry", Name: "Title", Value: "Zoë\u2028\x01\xff",
			States: model.StateFocused | model.StateEditable, Bounds: &model.Rect{X: 120.5, Y: -48, W: 1e21, H: 1e-7}},
		Detail: map[string]any{"offset": 3, "text": "a<b"}}}
}

// TestEnvelopeAppendJSONIsMarshal: the hand-written encoding is json.Marshal's, byte for byte.
func TestEnvelopeAppendJSONIsMarshal(t *testing.T) {
	full := sampleEnvelope()
	bare := Envelope{Host: "h", Boot: "b", Seq: 1, Event: model.Event{Type: model.EventFocusChanged, Time: time.Unix(0, 0).In(time.FixedZone("x", 3600))}}
	for _, env := range []Envelope{full, bare} {
		want, err := json.Marshal(&env)
		if err != nil {
			t.Fatal(err)
		}
		got, err := env.AppendJSON(nil)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON:\n%s (%v)\njson.Marshal:\n%s", got, err, want)
		}
	}
	nan := full
	nan.Element = &model.ElementSummary{Role: model.RoleButton, Bounds: &model.Rect{X: math.NaN()}}
	if _, err := nan.AppendJSON(nil); err == nil {
		t.Fatal("NaN bounds encoded")
	}
}

// FuzzEnvelopeJSON: for any strings, numbers and times, AppendJSON is json.Marshal's bytes, or
// both fail.
func FuzzEnvelopeJSON(f *testing.F) {
	f.Add("Title", "typed text", "Untitled", int64(1764705389220123816), 120.5, -3.0, uint64(7), uint64(1))
	f.Add("\xff\x00<>&\u2028", "\"\\\b\f\n\r\t", "", int64(0), 1e21, 1e-7, uint64(0), uint64(0))
	f.Fuzz(func(t *testing.T, name, value, title string, nanos int64, x, y float64, states, gap uint64) {
		env := sampleEnvelope()
		env.Gap, env.Host = gap, name
		env.Time = time.Unix(0, nanos).In(time.FixedZone("z", int(nanos%50000)))
		env.Window.Title = title
		env.Element.Name, env.Element.Value, env.Element.States = name, value, model.States(states)
		env.Element.Bounds = &model.Rect{X: x, Y: y, W: x * y, H: -y}
		env.Detail = nil
		want, werr := json.Marshal(&env)
		got, gerr := env.AppendJSON(nil)
		if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON:\n%s (%v)\njson.Marshal:\n%s (%v)", got, gerr, want, werr)
		}
	})
}
