package waiters

import (
	"github.com/axbus/axbus/model"
	"github.com/axbus/axbus/waiters/condition"
)

// The engine's budgets, in the steps of the conditions' cost model (condition/cost.go: a regex's
// instructions times the bytes it reads, one step per byte for exact and contains).
const (
	// EvalBudget is the steps one evaluation of a wait may take (~0.45 s at worst): past it the
	// wait ends with CONDITION_TOO_COSTLY.
	EvalBudget = 64 << 20
	// InlineBudget is the steps a wait may take in one evaluation on its app's watcher (~0.5 ms
	// at worst), where every wait of the app is evaluated in turn. A wait that needs more is
	// evaluated from then on off the watcher (costly.go), so that it delays no other.
	InlineBudget = 64 << 10
	// RoundBudget is the steps a watcher spends on its waits for one change (~7 ms at worst).
	// The waits that cost least last time come first; those left once it is spent go to the
	// costly pool for this change.
	RoundBudget = 1 << 20
	// LocatorBudget is the steps one search of an action's locator may take (~30 ms at worst):
	// it runs on the app's watcher; past it the action ends with CONDITION_TOO_COSTLY.
	LocatorBudget = 4 << 20
)

// newMeter meters one evaluation of w within budget, stopped once w ends.
func newMeter(budget int64, w *wait) *condition.Meter {
	return condition.NewMeter(budget, w.ended.Load)
}

// tooCostly is the outcome of a wait whose evaluation would take more than its budget.
func tooCostly(budget int64) *Result {
	return &Result{Outcome: Failed, Error: model.Errorf(model.CodeConditionTooCostly,
		"Wait for a short, distinctive part of the text (contains, or a regex without long counted repetitions), or narrow the wait (role, window, scope).",
		"evaluating the condition against the app's text would take more than its budget of %d steps (a step: one regex instruction on one byte)", budget).
		With("budget", budget)}
}
