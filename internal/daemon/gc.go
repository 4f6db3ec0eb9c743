package daemon

import (
	"os"
	"runtime/debug"
)

// The daemon process's garbage-collection policy, unless GOGC or GOMEMLIMIT say otherwise. Its
// live heap is small (15-25 MB, most of it the snapshot store), so at Go's default of 100 it
// collected after every ~15 MB allocated, every 50-60 waits, and each collection's marking held
// one of two cores for 10-20 ms: that is the tail of a wait's latency. make bench, sim wait p99
// over 1,000 waits, four runs each: 1.6-2.3 ms at 100, 1.4-1.7 ms at 200, 0.9-1.2 ms at 400.
// The soft limit bounds what the higher target costs when the live heap is large (a full
// snapshot store). Idle RSS: 30 MB at 100, 36 MB at 400.
const (
	GCPercent   = 400
	MemoryLimit = 512 << 20
)

// SetGCPolicy applies GCPercent and MemoryLimit to this process. It is the daemon's process
// policy: `axbus serve` calls it, and so does the benchmark that hosts daemons.
func SetGCPolicy() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}

// releaseMemory hands the heap's free memory back to the system at once. The poller calls it
// when it stops polling (the last subscriber of snapshot diffs left): the daemon then allocates
// next to nothing, so its RSS should be its live heap, not the headroom of GCPercent filled
// with the polling's garbage, which the runtime would return only minutes later, after its next
// forced collection. It costs one collection of the live heap (about 10 ms), once.
func releaseMemory() { debug.FreeOSMemory() }
