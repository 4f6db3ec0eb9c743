package model

import (
	"time"
)

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

// WideBudget is the budget of scoped inspection and polled snapshots: the whole window,
// off-screen content included, up to what a listing or a diff can carry.
func WideBudget() Budget { return budget(64, 4000, 1000, 18*time.Second) }

// WholeBudget is the budget of what reads a window for its content rather than to list it: read
// (its text is bounded by bytes) and the live copy a wait matches against. A real web page is
// big (a 2,000-row table is ~16,000 elements in Chromium, read in ~10 s), and a wait must see
// all of it; the bound is the copy's memory.
func WholeBudget() Budget { return budget(64, 50_000, 10_000, 60*time.Second) }

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
