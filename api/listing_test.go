package api_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/schemas"
)

func metResult() *api.WaitResult {
	insp := &model.Inspection{SnapshotID: "s_1", App: model.AppRef{Name: "Notes", PID: 501}, Window: model.WindowRef{ID: "w1", Title: "Notes <1>"},
		Created: time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC), Budget: model.UnscopedBudget(), Walked: 2,
		Elements: []model.Element{
			{ID: "e0", Role: model.RoleWindow, Name: "Notes", Bounds: &model.Rect{W: 900, H: 800}, States: model.StateEnabled, Children: 1},
			{ID: "e1", Parent: "e0", Depth: 1, Role: model.RoleLabel, Name: "Saved & done", Actions: []string{"AXPress"}},
		}}
	insp.Budget.Deadline = 0 // not on the wire: DeadlineMS is
	match := insp.Elements[1]
	return &api.WaitResult{Outcome: api.WaitMet, Condition: `text="Saved & done"`, ElapsedMS: 1.25, Match: &match,
		Trigger: &api.WaitTrigger{Kind: "event", Event: model.EventValueChanged}, App: &insp.App, Snapshot: api.NewListing(insp)}
}

// TestWaitReplyEncoding: the daemon's encoding of a wait's reply is the reply's schema, reads
// back whole (the listing on first use), and says what encoding/json says of the same reply.
func TestWaitReplyEncoding(t *testing.T) {
	r := metResult()
	data, span, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("wait.reply", data); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	var back api.WaitResult
	if err := api.DecodeWaitResult(data, span, &back); err != nil {
		t.Fatal(err)
	}
	if back.Outcome != api.WaitMet || back.Match == nil || back.Match.Name != "Saved & done" {
		t.Fatalf("head read back as %+v", back)
	}
	want, _ := r.Snapshot.Inspection()
	got, err := back.Snapshot.Inspection()
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("listing read back as %+v (%v), want %+v", got, err, want)
	}
	// Re-encoded by a client, and by encoding/json on the daemon's value, it is the same JSON.
	again, err := json.Marshal(&back)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{again, plain} {
		var x, y any
		if err := json.Unmarshal(b, &x); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(data, &y)
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("encodings differ:\n%s\n%s", b, data)
		}
	}
}

func TestListingThatIsNotJSONIsAnError(t *testing.T) {
	var r api.WaitResult
	if err := json.Unmarshal([]byte(`{"outcome":"met","snapshot":{"elements":"no"}}`), &r); err != nil {
		t.Fatal(err) // the listing is read on first use
	}
	if _, err := r.Snapshot.Inspection(); model.CodeOf(err) != model.CodeInternal {
		t.Fatalf("err %v", err)
	}
	if err := json.Unmarshal([]byte(`{"outcome":"timeout","snapshot":null}`), &r); err != nil || r.Snapshot != nil {
		t.Fatalf("a null listing: %v %+v", err, r.Snapshot)
	}
}
