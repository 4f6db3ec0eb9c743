package api

// The limits of heavy work, each said once: screenshots (capture, scaling, PNG), text
// recognition, reads and scoped inspections run within them, for each identity and in all. A
// request past them waits for its turn, identities served in turn (the one with the fewest
// running first), within its deadline: BUSY when its time runs out first, or at once when the
// queue is full. The work itself sees the request's deadline and stops with it.
const (
	// MaxHeavy bounds the heavy requests running at once; MaxHeavyPerIdentity one identity's.
	MaxHeavy            = 4
	MaxHeavyPerIdentity = 2
	// MaxHeavyBytes bounds the estimated memory of the heavy requests running;
	// MaxHeavyBytesPerIdentity one identity's (a request estimated larger runs alone in it).
	MaxHeavyBytes            = 192 << 20
	MaxHeavyBytesPerIdentity = 96 << 20
	// MaxHeavyQueued bounds the heavy requests waiting for their turn; MaxHeavyQueuedPerIdentity
	// one identity's: past them a request is BUSY at once.
	MaxHeavyQueued            = 64
	MaxHeavyQueuedPerIdentity = 8
	// HeavyShotFactor is a screenshot's estimated memory in units of its capture (w*h*4): the
	// capture, the scaled copy, the PNG's growing buffer and what the collector has yet to free.
	HeavyShotFactor = 4
	// HeavyElementBytes is a walked element's estimated memory, times its budget's elements.
	HeavyElementBytes = 512
)
