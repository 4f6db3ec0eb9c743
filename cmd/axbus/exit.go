package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/axbus/axbus/bus"
	"github.com/axbus/axbus/embedded"
	"github.com/axbus/axbus/observer"
)

// Exit statuses, documented in the README. Each error code maps to one.
const (
	exitOK             = 0
	exitInternal       = 1
	exitUsage          = 2 // BAD_REQUEST, PAYLOAD_TOO_LARGE, bad flags
	exitNotFound       = 3
	exitStale          = 4
	exitAppGone        = 5
	exitTimeout        = 6
	exitActionFailed   = 7
	exitPermission     = 8
	exitUnavailable    = 9
	exitAlreadyRunning = 10
	exitAddressInUse   = 11
)

// exitCode maps an error code to the exit status.
func exitCode(c observer.Code) int {
	switch c {
	case observer.CodeBadRequest, observer.CodePayloadTooLarge:
		return exitUsage
	case observer.CodeAppNotFound, observer.CodeAppAmbiguous, observer.CodeWindowNotFound, observer.CodeElementNotFound:
		return exitNotFound
	case observer.CodeSnapshotExpired, observer.CodeStaleRef, observer.CodeAmbiguousTarget, observer.CodeScopeMoved,
		observer.CodeScopeChanged, observer.CodeScopeAmbiguous, observer.CodeScopeGeneration:
		return exitStale
	case observer.CodeAppGone, observer.CodeAppNotResponding:
		return exitAppGone
	case observer.CodeTimeout:
		return exitTimeout
	case observer.CodeActionFailed, observer.CodeNotSupported, observer.CodeTransient:
		return exitActionFailed
	case observer.CodePermissionDenied:
		return exitPermission
	case observer.CodeUnavailable:
		return exitUnavailable
	}
	return exitInternal
}

// errUsage marks bad flags or arguments; the flag package has printed the details.
var errUsage = errors.New("usage")

// quietError is an outcome the command printed already (as JSON on stdout): only its exit
// status and one line on stderr remain.
type quietError struct{ e *observer.Error }

func (q quietError) Error() string { return q.e.Error() }

func quiet(e *observer.Error) error { return quietError{e} }

// report prints err as one line on stderr (and as the JSON error envelope on stdout when stdout
// is not a terminal, for programs) and returns the exit status.
func report(err error, stdout, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp) {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if s := embedded.Suggestion(err); s != "" { // the daemon's own start-up and discovery errors
		line := err.Error()
		if !strings.Contains(line, s) {
			line += " (" + s + ")"
		}
		fmt.Fprintln(stderr, "axbus: "+line)
		var running *embedded.AlreadyRunningError
		var busy *embedded.PortBusyError
		var exposed *embedded.ExposedListenError
		var tlsFiles *embedded.TLSFilesError
		switch {
		case errors.As(err, &exposed), errors.As(err, &tlsFiles):
			return exitUsage // the flags ask for what the daemon refuses: say how to ask otherwise
		case errors.As(err, &running):
			return exitAlreadyRunning
		case errors.As(err, &busy):
			return exitAddressInUse
		case errors.Is(err, embedded.ErrNotRunning):
			return exitUnavailable
		}
		return exitInternal
	}
	var q quietError
	if errors.As(err, &q) {
		fmt.Fprintf(stderr, "axbus: %s: %s (%s)\n", q.e.Code, q.e.Message, q.e.Suggestion)
		return exitCode(q.e.Code)
	}
	e := observer.AsError(err)
	fmt.Fprintf(stderr, "axbus: %s: %s (%s)\n", e.Code, e.Message, e.Suggestion)
	if !isTerminal(stdout) {
		_ = json.NewEncoder(stdout).Encode(bus.ErrorBody{Error: e})
	}
	return exitCode(e.Code)
}
