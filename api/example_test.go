package api_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// An event as a subscriber of ax.<host>.evt.> receives it: plain JSON, decoded with encoding/json
// alone; host, boot and seq name it.
func ExampleEnvelope() {
	data := []byte(`{"host":"desk","boot":"dnd720tbtp42","seq":7,"time":"2026-12-05T23:39:39Z",
		"app":{"name":"Notes","pid":501,"generation":1},"window":{"id":"main","title":"Notes"},
		"type":"value_changed","element":{"role":"checkbox","name":"Remember me","value":"1","states":["enabled","checked"]}}`)
	var e api.Envelope
	if err := json.Unmarshal(data, &e); err != nil {
		panic(err)
	}
	fmt.Println(e.Host, e.Seq, e.App.Name, e.Type, e.Element.Role, e.Element.Name, e.Element.Value)
	// Output: desk 7 Notes value_changed checkbox Remember me 1
}

// A long value is cut to api.MaxEventText bytes before the event is published; the cut says
// how long the whole was and its digest, and read or inspect give it whole.
func ExampleBounded() {
	e := model.Event{Type: model.EventValueChanged,
		Element: &model.ElementSummary{Role: model.RoleTextField, Value: strings.Repeat("x", 100_000)}}
	bounded, cut := api.Bounded(e)
	fmt.Println(len(bounded.Element.Value) <= api.MaxEventText, len(e.Element.Value), cut[0].Field, cut[0].Length)
	// Output: true 100000 element.value 100000
}
