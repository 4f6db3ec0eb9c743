package api

import (
	"reflect"
	"testing"
	"time"

	"github.com/axbus/axbus/model"
)

// TestWaitReplyDecoding: a client reads a reply through its listing span, and whole when the
// span is missing or does not fit the body; the result is the same either way.
func TestWaitReplyDecoding(t *testing.T) {
	insp := &model.Inspection{SnapshotID: "s_1", Created: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Walked: 1,
		Elements: []model.Element{{ID: "e0", Role: model.RoleLabel, Name: `"snapshot":null,}`}}}
	match := insp.Elements[0]
	data, good, err := (&WaitResult{Outcome: WaitMet, Condition: `text="x"`, Match: &match, Snapshot: NewListing(insp)}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, span := range []string{good, "", "0,5", "3,99999", "x,y", "-1,4", "12", "5,10"} {
		var r WaitResult
		if err := DecodeWaitResult(data, span, &r); err != nil {
			t.Fatalf("span %q: %v", span, err)
		}
		got, err := r.Snapshot.Inspection()
		if err != nil || r.Outcome != WaitMet || r.Match == nil || r.Match.Name != match.Name || !reflect.DeepEqual(got, insp) {
			t.Fatalf("span %q: %+v, listing %+v (%v)", span, r, got, err)
		}
	}
	if _, _, ok := listingSpan(data, good); !ok {
		t.Fatalf("the daemon's span %q does not fit its body", good)
	}
}
