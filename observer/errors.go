package observer

import (
	"context"
	"errors"
	"fmt"
)

// Code is a stable error code of the public API. The CLI maps each to an exit status.
type Code string

// The error codes. Keep them stable: agents branch on them.
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
	CodeInternal         Code = "INTERNAL"
)

// Codes lists every error code.
var Codes = []Code{CodeBadRequest, CodePayloadTooLarge, CodeAppNotFound, CodeAppAmbiguous, CodeWindowNotFound,
	CodeElementNotFound, CodeSnapshotExpired, CodeStaleRef, CodeAmbiguousTarget, CodeScopeMoved, CodeScopeChanged,
	CodeScopeAmbiguous, CodeScopeGeneration, CodeAppGone, CodeAppNotResponding, CodeTimeout, CodeActionFailed,
	CodeNotSupported, CodePermissionDenied, CodeTransient, CodeUnavailable, CodeInternal}

// Error is an error of the public API: a stable code, a message, a suggestion the caller can act
// on, and details. Every error that leaves the daemon is one of these.
type Error struct {
	Code       Code           `json:"code"`
	Message    string         `json:"message"`
	Suggestion string         `json:"suggestion"`
	Details    map[string]any `json:"details,omitempty"`
	cause      error
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// Is matches another *Error by code, so errors.Is(err, &Error{Code: CodeTimeout}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Errorf builds an Error with a suggestion. Its string arguments are cut to MaxEcho bytes: they
// are what repeats the caller's input.
func Errorf(code Code, suggestion, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, excerptArgs(args)...), Suggestion: suggestion}
}

// With adds a detail and returns e.
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// Wrap records cause as the underlying error and returns e.
func (e *Error) Wrap(cause error) *Error { e.cause = cause; return e }

// AsError turns any error into an *Error: API errors pass through, context errors become
// TIMEOUT, anything else INTERNAL.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Errorf(CodeTimeout, "Retry with a longer timeout, or narrow the request (a scope, a smaller budget).",
			"the request ran out of time").Wrap(err)
	}
	return Errorf(CodeInternal, "This is a bug in axbus; please report it with the daemon's log.", "%v", err).Wrap(err)
}

// CodeOf returns the code of err, or "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	return AsError(err).Code
}
