package model

// AppPollStats describes the polling of one app by observer/live's Poller, as status reports it.
type AppPollStats struct {
	App AppRef `json:"app"`
	// Window is the polled window; nil while the app has none to poll.
	Window *WindowRef `json:"window,omitempty"`
	// Elements counts the elements held for the window.
	Elements int `json:"elements"`
	// Cycles counts the cycles that found a window; FullReads those that read it whole.
	Cycles    uint64 `json:"cycles"`
	FullReads uint64 `json:"full_reads"`
	// Reads counts the elements read by all cycles.
	Reads     uint64 `json:"reads"`
	Published uint64 `json:"published"`
	// Pending counts the elements events marked for the next cycle.
	Pending int `json:"pending"`
	// Polling is set while the app is polled; without live.PollWhen, from its first cycle on. A
	// dormant app (nobody listens) holds no copy and costs no read.
	Polling bool `json:"polling"`
	// Listeners is how many consumed the app's diffs at its last cycle, as live.PollWhen counts
	// them (1 without it).
	Listeners int `json:"listeners"`
}
