package e2e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go/micro"
)

// `nats micro stats axbus` (the real CLI) tells the truth: a bad request counts as an error of
// its endpoint, and a wait that took 200 ms counts 200 ms of processing, though the daemon
// answers both from a goroutine of their own.
func TestNatsMicroStats(t *testing.T) {
	d := startTestDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if out, err := d.NatsRun(t, ctx, "req", "--raw", d.Subjects.Endpoint("inspect"), `{"app":`); err != nil {
		t.Fatalf("nats req: %v\n%s", err, out)
	}
	start := time.Now()
	out, err := d.NatsRun(t, ctx, "req", "--raw", d.Subjects.Endpoint("wait"), `{"expr":"text:\"never there\"","app":"notes","timeout_ms":200}`)
	if err != nil {
		t.Fatalf("nats req wait: %v\n%s", err, out)
	}
	took := time.Since(start)
	out, err = d.NatsRun(t, ctx, "micro", "stats", "axbus", "--json")
	if err != nil {
		t.Fatalf("nats micro stats: %v\n%s", err, out)
	}
	var stats []micro.Stats
	if err := json.Unmarshal([]byte(out), &stats); err != nil || len(stats) != 1 {
		var one micro.Stats // one instance may come as an object
		if err := json.Unmarshal([]byte(out), &one); err != nil {
			t.Fatalf("nats micro stats --json: %v\n%s", err, out)
		}
		stats = []micro.Stats{one}
	}
	by := map[string]*micro.EndpointStats{}
	for _, ep := range stats[0].Endpoints {
		by[ep.Name] = ep
	}
	inspect, wait := by["inspect"], by["wait"]
	if inspect == nil || inspect.NumRequests != 1 || inspect.NumErrors != 1 || inspect.LastError == "" {
		t.Fatalf("inspect after a bad request: %+v", inspect)
	}
	if wait == nil || wait.NumRequests != 1 || wait.NumErrors != 0 ||
		wait.ProcessingTime < 200*time.Millisecond || wait.ProcessingTime > took {
		t.Fatalf("wait of 200 ms (%v end to end): %+v", took, wait)
	}
}
