package api

import "github.com/axbus/axbus/observer"

// ErrorBody is the JSON body of an error reply: {"error": {"code", "message", "suggestion",
// "details"}}. The reply's headers carry micro's status (the code's observer.CodeInfo.Status)
// and HeaderCode.
type ErrorBody struct {
	Error *observer.Error `json:"error"`
}
