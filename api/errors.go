package api

import "github.com/axbus/axbus/model"

// ErrorBody is the JSON body of an error reply: {"error": {"code", "message", "suggestion",
// "details"}}. The reply's headers carry micro's status (the code's model.CodeInfo.Status)
// and HeaderCode.
type ErrorBody struct {
	Error *model.Error `json:"error"`
}
