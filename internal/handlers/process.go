package handlers

import (
	"os"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/axbus/axbus/api"
)

// heapMetric is the bytes of live and not yet swept heap objects: what HeapAlloc says, read
// without runtime.ReadMemStats's stop of the world (status is polled); liveHeapMetric the heap
// the last collection marked live.
const (
	heapMetric     = "/memory/classes/heap/objects:bytes"
	liveHeapMetric = "/gc/heap/live:bytes"
)

// processStatus is the daemon's process now; started is when it began serving.
func processStatus(started time.Time) *api.ProcessStatus {
	sample := []metrics.Sample{{Name: heapMetric}, {Name: liveHeapMetric}}
	metrics.Read(sample)
	p := &api.ProcessStatus{PID: os.Getpid(), Goroutines: runtime.NumGoroutine(), FDs: -1}
	if sample[0].Value.Kind() == metrics.KindUint64 {
		p.HeapBytes = sample[0].Value.Uint64()
	}
	if sample[1].Value.Kind() == metrics.KindUint64 {
		p.LiveHeapBytes = sample[1].Value.Uint64()
	}
	if !started.IsZero() {
		p.UptimeSec = int64(time.Since(started) / time.Second)
	}
	p.RSSBytes, p.FDs = residentAndFiles()
	return p
}
