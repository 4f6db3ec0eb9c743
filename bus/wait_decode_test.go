package bus

import (
	"reflect"
	"testing"
	"time"

	"github.com/axbus/axbus/observer"
	"github.com/nats-io/nats.go"
)

// TestWaitReplyDecoding: the client reads a reply through its listing header, and whole when
// the header is missing or does not fit the body; the result is the same either way.
func TestWaitReplyDecoding(t *testing.T) {
	insp := &observer.Inspection{SnapshotID: "s_1", Created: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Walked: 1,
		Elements: []observer.Element{{ID: "elem_0", Role: observer.RoleLabel, Name: `"snapshot":null,}`}}}
	match := insp.Elements[0]
	enc, err := (&WaitResult{Outcome: WaitMet, Condition: `text="x"`, Match: &match, Snapshot: NewListing(insp)}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	good := enc.Header.Get(HeaderListing)
	for _, header := range []string{good, "", "0,5", "3,99999", "x,y", "-1,4", "12", "5,10"} {
		var r WaitResult
		if err := decodeWaitReply(&nats.Msg{Data: enc.Data, Header: nats.Header{HeaderListing: []string{header}}}, &r); err != nil {
			t.Fatalf("header %q: %v", header, err)
		}
		got, err := r.Snapshot.Inspection()
		if err != nil || r.Outcome != WaitMet || r.Match == nil || r.Match.Name != match.Name || !reflect.DeepEqual(got, insp) {
			t.Fatalf("header %q: %+v, listing %+v (%v)", header, r, got, err)
		}
	}
	if _, _, ok := listingSpan(&nats.Msg{Data: enc.Data, Header: enc.Header}); !ok {
		t.Fatalf("the daemon's header %q does not fit its body", good)
	}
}
