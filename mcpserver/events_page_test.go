package mcpserver

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/client"
)

// event is an envelope of app, type and detail at seq.
func event(seq uint64, app string, typ model.EventType, detail map[string]any) client.SequencedEvent {
	return client.SequencedEvent{Seq: seq, Event: api.Envelope{Host: "h", Boot: "b", Seq: seq, Event: model.Event{
		Time: time.Unix(1700000000, 0), App: model.AppRef{Name: app}, Type: typ, Detail: detail,
		Element: &model.ElementSummary{Role: model.RoleButton, Name: "element " + strings.Repeat("x", int(seq%7))}}}}
}

func showing(on bool) map[string]any { return map[string]any{"state": "showing", "on": on} }

// TestEventsPageCoalescesRuns: consecutive events of one app, kind and way (a state on or off)
// are one entry, the last, with their count; another app, kind or way, or a gap, starts a new one.
func TestEventsPageCoalescesRuns(t *testing.T) {
	p := newEventsPage(&client.EventsPage{Cursor: 11, Events: []client.SequencedEvent{
		event(1, "a", model.EventStateChanged, showing(true)),
		event(2, "a", model.EventStateChanged, showing(true)),
		event(3, "a", model.EventStateChanged, showing(true)),
		event(4, "a", model.EventStateChanged, showing(false)),
		event(5, "b", model.EventStateChanged, showing(false)),
		event(6, "b", model.EventStateChanged, map[string]any{"state": "checked", "on": false}),
		event(7, "b", model.EventValueChanged, nil),
		event(8, "b", model.EventValueChanged, nil),
		event(9, "b", model.EventValueChanged, nil),
	}})
	gap := event(10, "b", model.EventValueChanged, nil)
	gap.Event.Gap = 2
	p2 := newEventsPage(&client.EventsPage{Events: append([]client.SequencedEvent{event(9, "b", model.EventValueChanged, nil)}, gap)})
	var got []int
	for _, e := range p.Events {
		got = append(got, int(e.Envelope.Seq), e.events())
	}
	if want := []int{3, 3, 4, 1, 5, 1, 6, 1, 9, 3}; !slices.Equal(got, want) || len(p2.Events) != 2 || p.events() != 9 {
		t.Fatalf("entries (seq, count): %v, want %v; across a gap: %d entries", got, want, len(p2.Events))
	}
	text, shown := p.text(nil)
	if shown != p || strings.Count(text, "\n") != 5 || !strings.Contains(text, "  ×3\n") || !strings.HasSuffix(text, "9 events in 5 lines (×N: a run of N alike, the last shown); cursor 11") {
		t.Fatalf("text:\n%s", text)
	}
	raw, _ := json.Marshal(p)
	if !strings.Contains(string(raw), `"count":3`) || strings.Count(string(raw), `"count"`) != 2 {
		t.Fatalf("structured: %s", raw)
	}
}

// TestEventsTextKeepsTheCursor: a page whose lines pass maxText ends at the last line that fits,
// with that line's cursor and more; one line alone too long is cut, and the footer still ends it.
func TestEventsTextKeepsTheCursor(t *testing.T) {
	var evs []client.SequencedEvent
	for i := range 2000 {
		typ := model.EventValueChanged
		if i%2 == 1 {
			typ = model.EventTitleChanged
		}
		evs = append(evs, event(uint64(100+i), "an app with a long name", typ, nil))
	}
	kinds, _ := client.ParseEventKinds(defaultExclude)
	p := newEventsPage(&client.EventsPage{Events: evs, Cursor: 5000, Excluded: 7})
	text, shown := p.text(kinds)
	footer := regexp.MustCompile(`\n(\d+) events; 7 left out by exclude \[state_changed:showing, state_changed:visible, layout_changed\] \(\[\] keeps all\); cursor (\d+); more follow: call again with this cursor$`)
	m := footer.FindStringSubmatch(text)
	if len(text) > maxText || m == nil || len(shown.Events) >= 2000 || !shown.More || m[2] != strconv.FormatUint(shown.Events[len(shown.Events)-1].seq, 10) ||
		m[1] != strconv.Itoa(len(shown.Events)) || strings.Count(text, "\n") != len(shown.Events) {
		t.Fatalf("%d bytes, %d of 2000 shown; ends %q", len(text), len(shown.Events), text[len(text)-300:])
	}
	if p.Cursor != 5000 || len(p.Events) != 2000 {
		t.Fatal("the page itself was changed")
	}
	huge := newEventsPage(&client.EventsPage{Events: []client.SequencedEvent{event(1, strings.Repeat("ä", 40000), model.EventFocusChanged, nil)}, Cursor: 1})
	text, shown = huge.text(nil)
	if len(text) > maxText || !strings.HasSuffix(text, " …\n1 event; cursor 1") || len(shown.Events) != 1 {
		t.Fatalf("one line too long: %d bytes, ends %q", len(text), text[len(text)-100:])
	}
}

// TestEventsResourceNewest: the resource's body is the page's newest entries within its bound,
// the older counted in earlier.
func TestEventsResourceNewest(t *testing.T) {
	var evs []client.SequencedEvent
	for i := range 300 {
		evs = append(evs, event(uint64(i+1), "app", []model.EventType{model.EventValueChanged, model.EventTitleChanged}[i%2], nil))
	}
	p := newEventsPage(&client.EventsPage{Events: evs, Cursor: 300, Earlier: 5})
	body := p.newest(8 << 10)
	var got struct {
		Events  []api.Envelope `json:"events"`
		Cursor  uint64         `json:"cursor"`
		Earlier int            `json:"earlier"`
	}
	if err := json.Unmarshal(body, &got); err != nil || len(body) > 8<<10 || len(got.Events) == 0 || got.Events[len(got.Events)-1].Seq != 300 ||
		got.Earlier != 5+300-len(got.Events) || got.Cursor != 300 {
		t.Fatalf("%d bytes, %d events, earlier %d, cursor %d (%v)", len(body), len(got.Events), got.Earlier, got.Cursor, err)
	}
}
