package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// Exit statuses: each error code has its own in observer's code table (the README's table is
// checked against it); bad flags and arguments exit with BAD_REQUEST's.
var (
	exitOK             = 0
	exitInternal       = model.CodeInternal.Info().Exit
	exitUsage          = model.CodeBadRequest.Info().Exit
	exitNotFound       = model.CodeAppNotFound.Info().Exit
	exitTimeout        = model.CodeTimeout.Info().Exit
	exitUnavailable    = model.CodeUnavailable.Info().Exit
	exitAlreadyRunning = model.CodeAlreadyRunning.Info().Exit
	exitAddressInUse   = model.CodeAddressInUse.Info().Exit
)

// quietError is an outcome the command printed already: only its exit status and one line on
// stderr remain.
type quietError struct{ e *model.Error }

func (q quietError) Error() string { return q.e.Error() }

func quiet(e *model.Error) error { return quietError{e} }

// exitStatus is a status a command exits with that no error code names (desktop run passes
// on its program's); the program has said why.
type exitStatus int

func (s exitStatus) Error() string { return "exit status " + strconv.Itoa(int(s)) }

// report prints err as one line on stderr (and as the JSON error body on stdout when stdout is
// not a terminal, for programs) and returns the exit status.
func report(err error, stdout, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var status exitStatus
	if errors.As(err, &status) {
		return int(status)
	}
	var q quietError
	if errors.As(err, &q) {
		fmt.Fprintf(stderr, "axbus: %s: %s (%s)\n", q.e.Code, q.e.Message, q.e.Suggestion)
		return q.e.Code.Info().Exit
	}
	e := model.AsError(err)
	fmt.Fprintf(stderr, "axbus: %s: %s (%s)\n", e.Code, e.Message, e.Suggestion)
	if !isTerminal(stdout) {
		_ = json.NewEncoder(stdout).Encode(api.ErrorBody{Error: e})
	}
	return e.Code.Info().Exit
}
