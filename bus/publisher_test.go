package bus

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// The publisher's hot path, event -> subject and envelope, allocates nothing once an app's and
// type's subject is known, and numbers the envelopes in order.
func TestEncoderAllocatesNothingPerEvent(t *testing.T) {
	enc := encoder{subj: api.Subjects{Prefix: "ax", Host: "h1"}, boot: "b1"}
	ev := model.Event{Type: model.EventValueChanged, Raw: "AXValueChanged", Time: time.Unix(1700000000, 5),
		App:    model.AppRef{Name: "Notes", PID: 42, Generation: 1},
		Window: &model.WindowRef{ID: "w1", Title: "Untitled"},
		Element: &model.ElementSummary{Role: model.RoleTextField, Name: "Title", Value: "typed",
			States: model.StateFocused, Bounds: &model.Rect{X: 1, Y: 2, W: 3, H: 4}}}
	subject, data, err := enc.encode(ev, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := "ax.h1.evt.notes.value_changed"; subject != want {
		t.Errorf("subject %q, want %q", subject, want)
	}
	var env api.Envelope
	if err := json.Unmarshal(data, &env); err != nil || env.Seq != 1 || env.Gap != 2 || env.Boot != "b1" || env.Element.Value != "typed" {
		t.Errorf("envelope %s (err %v)", data, err)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		if _, _, err := enc.encode(ev, 0); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per event, want 0", allocs)
	}
	if enc.seq != 1002 {
		t.Errorf("seq %d after 1002 events", enc.seq)
	}
}
