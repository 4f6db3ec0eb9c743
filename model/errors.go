package model

import (
	"context"
	"errors"
	"fmt"
)

// Error is an error of the public API: a stable code, a message, a suggestion the caller can act
// on, and details. Every error that leaves the daemon is one of these.
type Error struct {
	Code       Code   `json:"code"`
	Message    string `json:"message"`
	Suggestion string `json:"suggestion"`
	// Recovery is the code's (CodeInfo.Recovery), filled in where the error leaves the daemon.
	Recovery Recovery       `json:"recovery,omitempty"`
	Details  map[string]any `json:"details,omitempty"`
	cause    error
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// Is matches another *Error by code, so errors.Is(err, &Error{Code: CodeTimeout}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Errorf builds an Error with a suggestion ("" is the code's default one). Its string arguments are cut to MaxEcho bytes: they
// are what repeats the caller's input.
func Errorf(code Code, suggestion, format string, args ...any) *Error {
	if suggestion == "" {
		suggestion = code.Info().Suggestion
	}
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

// Coded is an error of another package that knows its code and suggestion (the embedded
// server's start-up errors).
type Coded interface {
	error
	Code() Code
	Suggestion() string
}

// AsError turns any error into an *Error: API errors pass through, Coded errors keep their
// code, context errors become TIMEOUT, anything else INTERNAL.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var c Coded
	if errors.As(err, &c) {
		return Errorf(c.Code(), c.Suggestion(), "%s", c.Error()).Wrap(err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Errorf(CodeTimeout, "Retry with a longer timeout, or narrow the request (a scope, a smaller budget).",
			"the request ran out of time").Wrap(err)
	}
	return Errorf(CodeInternal, "", "%v", err).Wrap(err)
}

// CodeOf returns the code of err, or "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	return AsError(err).Code
}

// ErrNilSink is a Watch without a sink.
func ErrNilSink() *Error {
	return Errorf(CodeBadRequest, "Pass a function that receives the events.", "nil sink")
}

// ErrButton is a pointer button the platform has not.
func ErrButton(button int) *Error {
	return Errorf(CodeBadRequest, "Use button 1 (left), 2 (middle) or 3 (right).", "no mouse button %d", button)
}
