package observer

import "time"

// Budget bounds one walk of the tree. Every cut it causes is reported in the snapshot.
type Budget struct {
	MaxDepth    int           `json:"depth"`
	MaxElements int           `json:"elements"`
	MaxChildren int           `json:"children"`
	Deadline    time.Duration `json:"-"`
	// DeadlineMS mirrors Deadline in replies.
	DeadlineMS int64 `json:"deadline_ms"`
}

// UnscopedBudget is the budget of a plain inspection: small enough to answer fast and to fit an
// agent's context, listing only what is on screen.
func UnscopedBudget() Budget { return budget(15, 200, 100, 5*time.Second) }

// WideBudget is the budget of scoped inspection, read and a wait's matching read: the whole
// window, off-screen content included.
func WideBudget() Budget { return budget(64, 4000, 1000, 18*time.Second) }

func budget(depth, elements, children int, deadline time.Duration) Budget {
	return Budget{MaxDepth: depth, MaxElements: elements, MaxChildren: children, Deadline: deadline, DeadlineMS: deadline.Milliseconds()}
}

// Truncation names what cut a walk or a text short.
type Truncation string

// The truncation reasons.
const (
	TruncatedDepth    Truncation = "truncated_depth"
	TruncatedCount    Truncation = "truncated_count"
	TruncatedChildren Truncation = "truncated_children"
	TruncatedDeadline Truncation = "truncated_deadline"
	IncompleteRead    Truncation = "incomplete_read"
	TextLimit         Truncation = "text_limit"
)
