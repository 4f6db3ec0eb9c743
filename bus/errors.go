package bus

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/axbus/axbus/observer"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"
)

// ErrorBody is the JSON body of an error reply: {"error": {"code", "message", "suggestion", "details"}}.
type ErrorBody struct {
	Error *observer.Error `json:"error"`
}

// Status is the micro error code header value of an error code: the HTTP-like status that
// `nats` tools show, next to our own code in the body.
func Status(c observer.Code) int {
	switch c {
	case observer.CodeBadRequest:
		return 400
	case observer.CodePermissionDenied:
		return 403
	case observer.CodeAppNotFound, observer.CodeWindowNotFound, observer.CodeElementNotFound:
		return 404
	case observer.CodeTimeout:
		return 408
	case observer.CodeAppAmbiguous, observer.CodeAmbiguousTarget, observer.CodeScopeAmbiguous:
		return 409
	case observer.CodeSnapshotExpired, observer.CodeStaleRef, observer.CodeAppGone,
		observer.CodeScopeMoved, observer.CodeScopeChanged, observer.CodeScopeGeneration:
		return 410
	case observer.CodePayloadTooLarge:
		return 413
	case observer.CodeActionFailed:
		return 422
	case observer.CodeNotSupported:
		return 501
	case observer.CodeUnavailable, observer.CodeTransient, observer.CodeAppNotResponding:
		return 503
	}
	return 500
}

// HeaderCode carries our stable error code next to micro's numeric one.
const HeaderCode = "Axbus-Error-Code"

// errorReply is the header and body of an error reply: micro's error headers (so that `nats`
// tools show it as a service error), our code, and the JSON error envelope.
func errorReply(e *observer.Error) (nats.Header, []byte) {
	e = e.Bounded()
	body, _ := json.Marshal(ErrorBody{Error: e})
	h := nats.Header{}
	h.Set(micro.ErrorHeader, strings.ReplaceAll(e.Message, "\n", " "))
	h.Set(micro.ErrorCodeHeader, strconv.Itoa(Status(e.Code)))
	h.Set(HeaderCode, string(e.Code))
	return h, body
}

// decodeError turns an error reply into an *observer.Error, or returns nil when msg is no error.
func decodeError(msg *nats.Msg) *observer.Error {
	if msg.Header.Get(micro.ErrorCodeHeader) == "" {
		return nil
	}
	var body ErrorBody
	if err := json.Unmarshal(msg.Data, &body); err == nil && body.Error != nil && body.Error.Code != "" {
		return body.Error
	}
	code := observer.Code(msg.Header.Get(HeaderCode))
	if code == "" {
		code = observer.CodeInternal
	}
	return observer.Errorf(code, "See the daemon's log for details.", "%s", msg.Header.Get(micro.ErrorHeader))
}
