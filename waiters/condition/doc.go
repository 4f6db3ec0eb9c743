// Package condition is the condition language: what a wait waits for and an action's expect
// expects, and the locators that name the element an action acts on. A condition has two
// forms, its canonical JSON (schema "condition") and the compact form the CLI and the MCP
// tools take, and is evaluated against a View, the engine's picture of an app:
//
//	c, err := condition.ParseCompact(`text:"Saved" or dialog:title~Error`)
//	if err != nil {
//		return err // a BAD_REQUEST *model.Error that names the column and shows examples
//	}
//	ok, element, window := c.Holds(view)
//
//	l, err := condition.ParseLocator(`dialog:title~Save >> role=button,name=OK`)
//	buttons := l.FindIn(inspection) // the elements of a listing it names, in tree order
//
// The package is pure: parsing, validation, rendering back to the compact form, and matching
// against elements and windows, with each evaluation's cost bounded (cost.go: regexes bounded
// when parsed, a Meter counting the steps of an evaluation). Waiting is the waiters engine's.
package condition
