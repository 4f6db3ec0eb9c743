// Package model is what axbus says about a desktop, whatever the platform and whatever the
// transport: apps and windows, elements (as a backend reads them, as a listing shows them, as an
// event summarises them), roles and states, events and snapshot diffs, budgets and truncation,
// element ids, the error codes with their suggestions and recoveries, and the JSON writers of the
// listing.
//
// The observer produces it, the wire types in api carry it, and a client decodes it: a Go agent
// that imports client and api gets this package and no observer.
//
//	err := model.Errorf(model.CodeTimeout, "Raise --timeout or check the condition.", "not met in %s", d)
//	if model.CodeOf(err) == model.CodeTimeout { ... }
//
// It imports the standard library only. A test proves it.
package model
