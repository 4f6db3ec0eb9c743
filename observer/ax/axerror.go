package ax

import (
	"fmt"

	"github.com/axbus/axbus/model"
)

// AXError is an error code of the HIServices accessibility API.
type AXError int32

// The AXError codes (HIServices/AXError.h).
const (
	AXSuccess                           AXError = 0
	AXFailure                           AXError = -25200
	AXIllegalArgument                   AXError = -25201
	AXInvalidUIElement                  AXError = -25202
	AXInvalidUIElementObserver          AXError = -25203
	AXCannotComplete                    AXError = -25204
	AXAttributeUnsupported              AXError = -25205
	AXActionUnsupported                 AXError = -25206
	AXNotificationUnsupported           AXError = -25207
	AXNotImplemented                    AXError = -25208
	AXNotificationAlreadyRegistered     AXError = -25209
	AXNotificationNotRegistered         AXError = -25210
	AXAPIDisabled                       AXError = -25211
	AXNoValue                           AXError = -25212
	AXParameterizedAttributeUnsupported AXError = -25213
	AXNotEnoughPrecision                AXError = -25214
)

// PermissionSuggestion is what to do when this process is not trusted for accessibility.
const PermissionSuggestion = "Open System Settings > Privacy & Security > Accessibility and switch on the app that runs axbus: " +
	"your terminal (Terminal, iTerm2, ...) when you run axbus from it, or the axbus binary itself when it runs as a service; " +
	"then restart axbus. A rebuilt unsigned binary may need the switch again."

// axErrorInfo is what the backend makes of one AXError.
type axErrorInfo struct {
	name       string
	code       model.Code
	suggestion string
}

// axErrors maps every AXError but Success. NoValue is an error only where a value is required:
// reads take it for an absent attribute.
var axErrors = map[AXError]axErrorInfo{
	AXFailure: {"kAXErrorFailure", model.CodeTransient,
		"The app reported a failure; retry shortly, and if it persists use another action or physical input."},
	AXIllegalArgument: {"kAXErrorIllegalArgument", model.CodeBadRequest,
		"Check the value's type: the attribute takes text, a number, a boolean or element ids."},
	AXInvalidUIElement: {"kAXErrorInvalidUIElement", model.CodeStaleRef,
		"The element no longer exists; inspect again to get fresh ids."},
	AXInvalidUIElementObserver: {"kAXErrorInvalidUIElementObserver", model.CodeInternal,
		"This is a bug in axbus; please report it with the daemon's log."},
	AXCannotComplete: {"kAXErrorCannotComplete", model.CodeTransient,
		"The app did not answer in time (busy, or still carrying out an action): check whether the action happened before retrying."},
	AXAttributeUnsupported: {"kAXErrorAttributeUnsupported", model.CodeNotSupported,
		"The element does not have this attribute; inspect it to see what it offers, or use another action."},
	AXActionUnsupported: {"kAXErrorActionUnsupported", model.CodeNotSupported,
		"The element does not offer this action; use one of its actions (inspect lists them) or physical input."},
	AXNotificationUnsupported: {"kAXErrorNotificationUnsupported", model.CodeNotSupported,
		"The app does not post this notification; poll the app's state instead."},
	AXNotImplemented: {"kAXErrorNotImplemented", model.CodeNotSupported,
		"The app does not implement accessibility for this; use physical input, or for a web app switch web accessibility on."},
	AXNotificationAlreadyRegistered: {"kAXErrorNotificationAlreadyRegistered", model.CodeInternal,
		"This is a bug in axbus; please report it with the daemon's log."},
	AXNotificationNotRegistered: {"kAXErrorNotificationNotRegistered", model.CodeInternal,
		"This is a bug in axbus; please report it with the daemon's log."},
	AXAPIDisabled: {"kAXErrorAPIDisabled", model.CodePermissionDenied, PermissionSuggestion},
	AXNoValue: {"kAXErrorNoValue", model.CodeNotSupported,
		"The element has no value for this attribute; inspect it to see what it offers."},
	AXParameterizedAttributeUnsupported: {"kAXErrorParameterizedAttributeUnsupported", model.CodeNotSupported,
		"The element does not offer this parameterised attribute; use another way to read it."},
	AXNotEnoughPrecision: {"kAXErrorNotEnoughPrecision", model.CodeBadRequest,
		"The value cannot be represented precisely enough; pass a rounder number."},
}

// unknownAXError describes a code missing from the table.
var unknownAXError = axErrorInfo{"unknown AXError", model.CodeInternal,
	"An unexpected answer from the accessibility API; please report it with the daemon's log."}

func (e AXError) info() axErrorInfo {
	if i, ok := axErrors[e]; ok {
		return i
	}
	return unknownAXError
}

// String names the code: "kAXErrorCannotComplete (-25204)".
func (e AXError) String() string {
	if e == AXSuccess {
		return "kAXErrorSuccess (0)"
	}
	return fmt.Sprintf("%s (%d)", e.info().name, int32(e))
}

// Code is the observer error code of e; "" for Success.
func (e AXError) Code() model.Code {
	if e == AXSuccess {
		return ""
	}
	return e.info().code
}

// Err turns e into an *model.Error with its code and suggestion, the message being what
// failed followed by the AX code; nil for Success.
func (e AXError) Err(format string, args ...any) *model.Error {
	if e == AXSuccess {
		return nil
	}
	i := e.info()
	return model.Errorf(i.code, i.suggestion, "%s: %s", fmt.Sprintf(format, args...), e).With("ax_error", int(e))
}
