package model

// Code is a stable error code of the public API. Agents branch on it; keep them stable.
type Code string

// The error codes; codeTable says what each means to a NATS tool and to the CLI.
const (
	CodeBadRequest       Code = "BAD_REQUEST"
	CodePayloadTooLarge  Code = "PAYLOAD_TOO_LARGE"
	CodeAppNotFound      Code = "APP_NOT_FOUND"
	CodeAppAmbiguous     Code = "APP_AMBIGUOUS"
	CodeWindowNotFound   Code = "WINDOW_NOT_FOUND"
	CodeElementNotFound  Code = "ELEMENT_NOT_FOUND"
	CodeSnapshotExpired  Code = "SNAPSHOT_EXPIRED"
	CodeStaleRef         Code = "STALE_REF"
	CodeAmbiguousTarget  Code = "AMBIGUOUS_TARGET"
	CodeElementHidden    Code = "ELEMENT_HIDDEN"
	CodeElementDisabled  Code = "ELEMENT_DISABLED"
	CodeScopeMoved       Code = "SCOPE_MOVED"
	CodeScopeChanged     Code = "SCOPE_CHANGED"
	CodeScopeAmbiguous   Code = "SCOPE_AMBIGUOUS"
	CodeScopeGeneration  Code = "SCOPE_GENERATION"
	CodeAppGone          Code = "APP_GONE"
	CodeAppNotResponding Code = "APP_NOT_RESPONDING"
	CodeTimeout          Code = "TIMEOUT"
	CodeActionFailed     Code = "ACTION_FAILED"
	CodeNotSupported     Code = "NOT_SUPPORTED"
	CodePermissionDenied Code = "PERMISSION_DENIED"
	CodeTransient        Code = "TRANSIENT"
	CodeUnavailable      Code = "UNAVAILABLE"
	CodeBusy             Code = "BUSY"
	CodeLeaseHeld        Code = "LEASE_HELD"
	CodeAlreadyRunning   Code = "ALREADY_RUNNING"
	CodeAddressInUse     Code = "ADDRESS_IN_USE"
	CodeInternal         Code = "INTERNAL"
)

// CodeConditionTooCostly: a wait's condition costs too much to evaluate (its regexes when
// parsed, an evaluation past its budget when run).
const CodeConditionTooCostly Code = "CONDITION_TOO_COSTLY"

// Recovery is what a caller does about an error, as data: agents branch on it as on the code.
type Recovery string

// The recoveries.
const (
	RecoverRetry   Recovery = "retry"   // the same request may work in a moment
	RecoverWait    Recovery = "wait"    // wait for what the message names (a lease, an element enabled), then again
	RecoverInspect Recovery = "inspect" // inspect again and act on what the new snapshot shows
	RecoverChange  Recovery = "change"  // the request itself must change: its arguments, target or credentials
	RecoverRestart Recovery = "restart" // the app is gone: start it again
	RecoverReport  Recovery = "report"  // a bug of axbus: report it
)

// CodeInfo is what one code means to each kind of caller.
type CodeInfo struct {
	Code Code
	// Status is micro's error code header: the HTTP-like status that `nats` tools show.
	Status int
	// Exit is the axbus CLI's exit status.
	Exit int
	// Recovery is what a caller does about it, as data (an error reply carries it).
	Recovery Recovery
	// Suggestion is said when the error has none of its own.
	Suggestion string
}

// codeTable is the one table of error codes: the README's exit table and the error schema's
// enum are checked against it.
var codeTable = []CodeInfo{
	{CodeBadRequest, 400, 2, RecoverChange, "See the request's schema with: axbus schema NAME."},
	{CodePayloadTooLarge, 413, 2, RecoverChange, "Send a smaller request; requests are at most 1 MiB."},
	{CodeConditionTooCostly, 422, 2, RecoverChange, "Wait for a short, distinctive part of the text: contains, or a regex without long counted repetitions."},
	{CodeAppNotFound, 404, 3, RecoverChange, "Run axbus apps to see the apps that expose an accessibility tree."},
	{CodeAppAmbiguous, 409, 3, RecoverChange, "Name the app exactly, or by --pid."},
	{CodeWindowNotFound, 404, 3, RecoverChange, "List the app's windows with: axbus windows --app NAME."},
	{CodeElementNotFound, 404, 3, RecoverInspect, "Inspect again and use an id of the new snapshot."},
	{CodeSnapshotExpired, 410, 4, RecoverInspect, "Inspect again: the snapshot is no longer kept."},
	{CodeStaleRef, 410, 4, RecoverInspect, "Inspect again: the element is not what the snapshot saw."},
	{CodeAmbiguousTarget, 409, 4, RecoverInspect, "Inspect again and name one element."},
	{CodeElementHidden, 409, 4, RecoverInspect, "Inspect again: the element no longer shows (its window or page is hidden); act on what shows now."},
	{CodeElementDisabled, 409, 14, RecoverWait, "Wait until it is enabled (a wait for state:eN=enabled), or act by a locator, which waits until the element is actionable."},
	{CodeScopeMoved, 410, 4, RecoverInspect, "Inspect again and scope into an element of the new snapshot."},
	{CodeScopeChanged, 410, 4, RecoverInspect, "Inspect again and scope into an element of the new snapshot."},
	{CodeScopeAmbiguous, 409, 4, RecoverInspect, "Inspect again and scope into an element of the new snapshot."},
	{CodeScopeGeneration, 410, 4, RecoverInspect, "The app restarted: inspect it again."},
	{CodeAppGone, 410, 5, RecoverRestart, "Start the app again."},
	{CodeAppNotResponding, 503, 5, RecoverRetry, "The app is busy or stuck; check it (axbus apps) and retry."},
	{CodeTimeout, 408, 6, RecoverRetry, "Retry with a longer timeout."},
	{CodeActionFailed, 422, 7, RecoverChange, "Check the trace; try another action, or --policy physical."},
	{CodeNotSupported, 501, 7, RecoverChange, "Use another action or backend."},
	{CodePermissionDenied, 403, 8, RecoverChange, "Grant the permission the message names."},
	{CodeTransient, 503, 7, RecoverRetry, "Retry."},
	{CodeUnavailable, 503, 9, RecoverRetry, "Start the daemon with `axbus serve` (or `make run`)."},
	{CodeBusy, 429, 12, RecoverRetry, "Wait for some of your own requests to end: everyone else is served meanwhile."},
	{CodeLeaseHeld, 409, 13, RecoverWait, "Another identity holds the lease: wait for it (axbus lease acquire --wait 30s), or act elsewhere."},
	{CodeAlreadyRunning, 409, 10, RecoverChange, "Use the daemon that runs, or stop it first."},
	{CodeAddressInUse, 409, 11, RecoverChange, "Choose another address with --listen."},
	{CodeInternal, 500, 1, RecoverReport, "This is a bug in axbus; please report it with the daemon's log."},
}

// Codes lists every error code, in the table's order.
var Codes = func() []Code {
	out := make([]Code, len(codeTable))
	for i, c := range codeTable {
		out[i] = c.Code
	}
	return out
}()

// CodeTable is the table of error codes (a copy).
func CodeTable() []CodeInfo { return append([]CodeInfo(nil), codeTable...) }

// Info is the table's row of c; an unknown code is INTERNAL's.
func (c Code) Info() CodeInfo {
	for _, i := range codeTable {
		if i.Code == c {
			return i
		}
	}
	info := codeTable[len(codeTable)-1]
	info.Code = c
	return info
}
