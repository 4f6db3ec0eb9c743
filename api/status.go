package api

import (
	"time"

	"github.com/axbus/axbus/model"
)

// StatusRequest asks for the daemon's health.
type StatusRequest struct{}

// StatusReply is the daemon's health.
type StatusReply struct {
	Host    string         `json:"host"`
	Version string         `json:"version"`
	Backend string         `json:"backend"`
	Started time.Time      `json:"started"`
	Events  PublisherStats `json:"events"`
	// Snaps counts the polled snapshot diffs and lists the apps polled; absent when polling is off.
	Snaps     *SnapStatus   `json:"snaps,omitempty"`
	Snapshots SnapshotStats `json:"snapshots"`
	Stream    string        `json:"stream"`
	// Listen is how clients reach the daemon; absent when status was not told (handlers.Status).
	Listen *ListenStatus `json:"listen,omitempty"`
	// Admission is how many requests are in flight, whose, and what was refused or cancelled.
	Admission *AdmissionStatus `json:"admission,omitempty"`
	// Heavy is the heavy work (screenshots, OCR, reads, scoped inspections) running and waiting.
	Heavy *HeavyStatus `json:"heavy,omitempty"`
	// History is what the event stream and the audit stream hold against their limits; absent
	// when the daemon keeps no history.
	History *HistoryStatus `json:"history,omitempty"`
	// Process is the daemon's process: goroutines, heap, resident memory, open files, uptime.
	Process *ProcessStatus `json:"process,omitempty"`
	// Resources is what the backend holds now, by the backend's own names (peer connections,
	// match rules, apps watched, cached elements...); absent when the backend does not say.
	Resources map[string]int `json:"resources,omitempty"`
}

// ProcessStatus is the daemon's process as the runtime and the kernel count it, read at each
// status call (a soak samples it to show nothing grows).
type ProcessStatus struct {
	PID        int    `json:"pid"`
	Goroutines int    `json:"goroutines"`
	HeapBytes  uint64 `json:"heap_bytes"` // heap objects, garbage not yet swept included (runtime/metrics)
	// LiveHeapBytes is the heap the last collection found live: what the daemon holds, without
	// the garbage its GC policy (GOGC=400) lets grow between collections.
	LiveHeapBytes uint64 `json:"live_heap_bytes"`
	// RSSBytes is the resident memory (Linux: VmRSS); 0 where the platform is not asked.
	RSSBytes uint64 `json:"rss_bytes"`
	// FDs counts the open file descriptors (Linux: /proc/self/fd); -1 where it is not counted.
	FDs       int   `json:"fds"`
	UptimeSec int64 `json:"uptime_s"`
}

// HeavyStatus is the heavy work against its limits (MaxHeavy, MaxHeavyBytes, MaxHeavyQueued).
type HeavyStatus struct {
	Running int   `json:"running"`
	Queued  int   `json:"queued"`
	Bytes   int64 `json:"bytes"` // estimated, of the work running
	// Busy counts the heavy requests refused since the start: the queue full, or no turn in time.
	Busy uint64 `json:"busy"`
}

// HistoryStatus is the history's two streams: the events, and the audit trail of actions.
type HistoryStatus struct {
	Events StreamStatus `json:"events"`
	Audit  StreamStatus `json:"audit"`
}

// StreamStatus is one stream of the history: what it holds, its limits, and how many messages
// are gone from before its first (evicted by its limits, or purged).
type StreamStatus struct {
	Name      string `json:"name"`
	Messages  uint64 `json:"messages"`
	Bytes     uint64 `json:"bytes"`
	FirstSeq  uint64 `json:"first_seq"`
	LastSeq   uint64 `json:"last_seq"`
	Evicted   uint64 `json:"evicted"`
	MaxBytes  int64  `json:"max_bytes"`
	MaxAgeSec int64  `json:"max_age_s"`
}

// AdmissionStatus describes the requests the daemon handles now against its limits
// (MaxInFlight, AdminReserve, MaxInFlightOf, FairShare), in status.
type AdmissionStatus struct {
	Capacity     int `json:"capacity"`
	AdminReserve int `json:"admin_reserve"`
	// InFlight counts the requests handled now; Shared those of agents and monitors, which
	// never exceed Capacity-AdminReserve.
	InFlight int `json:"in_flight"`
	Shared   int `json:"shared"`
	// Identities lists the identities with requests in flight, by name.
	Identities []IdentityInFlight `json:"identities"`
	// Busy and Unavailable count the requests refused since the start: past an identity's
	// limit or share (BUSY), past the daemon's capacity (UNAVAILABLE).
	Busy        uint64 `json:"busy"`
	Unavailable uint64 `json:"unavailable"`
	// Cancelled counts the requests cancelled because their connection closed.
	Cancelled uint64 `json:"cancelled"`
	// Overdue counts the requests in flight 30 s or more past their endpoint's deadline: stuck
	// (their handler ignores its context); the daemon logs every goroutine's stack when one is.
	Overdue int `json:"overdue"`
}

// IdentityInFlight is one identity's requests in flight and its limit now (its role's, or its
// fair share when that is lower).
type IdentityInFlight struct {
	Name     string `json:"name"`
	Role     string `json:"role"`
	InFlight int    `json:"in_flight"`
	Limit    int    `json:"limit"`
}

// ListenStatus describes the daemon's client listener in status.
type ListenStatus struct {
	// URL is what a client on the daemon's machine connects to (nats:// or tls://).
	URL string `json:"url"`
	// Address is the address the listener is bound to ("[::]:4228": every interface).
	Address string `json:"address"`
	// Loopback says that only the daemon's machine can connect.
	Loopback bool `json:"loopback"`
	// TLS says that the listener requires TLS.
	TLS bool `json:"tls"`
	// InsecureRemote says that other machines can connect without TLS (--insecure-remote).
	InsecureRemote bool `json:"insecure_remote"`
}

// SnapshotStats describes the snapshot store.
type SnapshotStats struct {
	Count int `json:"count"`
	Bytes int `json:"bytes"`
}

// PublisherStats counts what a publisher (of events, or of snapshot diffs) did.
type PublisherStats struct {
	Published uint64 `json:"published"`
	Dropped   uint64 `json:"dropped"`
	Queued    int    `json:"queued"`
	Capacity  int    `json:"capacity"`
}

// SnapStatus describes the polled snapshot diffs in status: the publisher's counters and which
// apps are polled now.
type SnapStatus struct {
	PublisherStats
	// Polled lists the apps polled now (someone subscribes to their diffs), by pid.
	Polled []model.AppPollStats `json:"polled"`
	// Idle says why no app is polled; empty while one is.
	Idle string `json:"idle,omitempty"`
}
