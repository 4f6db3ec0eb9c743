package bus

import (
	"testing"

	"github.com/axbus/axbus/api"
)

// Status is subscribed last, the others in their order: a client that sees status answer while
// another endpoint has no responder may conclude its role lacks that endpoint (the soak saw a
// restarting daemon's agents told PERMISSION_DENIED for lease).
func TestStatusIsSubscribedLast(t *testing.T) {
	got := statusLast(api.Endpoints)
	if len(got) != len(api.Endpoints) || got[len(got)-1].Name != "status" {
		t.Fatalf("%d endpoints, the last %q", len(got), got[len(got)-1].Name)
	}
	i := 0
	for _, ep := range api.Endpoints {
		if ep.Name == "status" {
			continue
		}
		if got[i].Name != ep.Name {
			t.Fatalf("endpoint %d is %q, want %q", i, got[i].Name, ep.Name)
		}
		i++
	}
}
