package handlers

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/sim"
	"github.com/axbus/axbus/schemas"
)

// statusOnSim is the status handler of a daemon serving the demo desktop for a minute.
func statusOnSim(t testing.TB) *Status {
	t.Helper()
	d, err := sim.Fixture("demo")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return &Status{Host: "h", Backend: d.Platform(), Started: time.Now().Add(-time.Minute),
		Store: observer.NewStore(observer.DefaultStoreLimits(), nil), Resources: ResourcesOf(d)}
}

// Status reports the daemon's process and what its backend holds, every time, valid against
// the reply's schema.
func TestStatusReportsProcessAndResources(t *testing.T) {
	reply, err := statusOnSim(t).Serve(context.Background(), api.StatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	r := reply.(api.StatusReply)
	p := r.Process
	if p == nil {
		t.Fatal("no process in the status")
	}
	if p.Goroutines <= 0 || p.HeapBytes == 0 || p.LiveHeapBytes == 0 || p.UptimeSec < 59 || p.PID <= 0 {
		t.Errorf("process %+v: want goroutines, a heap, a minute up, a pid", *p)
	}
	if runtime.GOOS == "linux" && (p.RSSBytes < p.HeapBytes/2 || p.FDs < 3) {
		t.Errorf("process %+v: on Linux want the resident memory and at least stdin, stdout and stderr", *p)
	}
	if r.Resources["apps"] != 2 || r.Resources["elements"] == 0 {
		t.Errorf("resources %v: want the demo's 2 apps and their elements", r.Resources)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("status.reply", data); err != nil {
		t.Errorf("%v\n%s", err, data)
	}
}

// A backend that says nothing of what it holds leaves resources out.
func TestResourcesOfABackendWithoutReport(t *testing.T) {
	if f := ResourcesOf(nil); f != nil {
		t.Error("resources of no backend")
	}
}

// BenchmarkStatus is the cost of one status call with the process read: status is polled.
func BenchmarkStatus(b *testing.B) {
	s := statusOnSim(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Serve(ctx, api.StatusRequest{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProcessStatus is the cost of the process's part alone.
func BenchmarkProcessStatus(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		processStatus(time.Now())
	}
}
