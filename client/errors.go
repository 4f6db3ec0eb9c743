package client

import (
	"encoding/json"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"
)

// decodeError turns an error reply into an *model.Error, or returns nil when msg is no error.
func decodeError(msg *nats.Msg) *model.Error {
	if msg.Header.Get(micro.ErrorCodeHeader) == "" {
		return nil
	}
	var body api.ErrorBody
	if err := json.Unmarshal(msg.Data, &body); err == nil && body.Error != nil && body.Error.Code != "" {
		return body.Error
	}
	code := model.Code(msg.Header.Get(api.HeaderCode))
	if code == "" {
		code = model.CodeInternal
	}
	return model.Errorf(code, "See the daemon's log for details.", "%s", msg.Header.Get(micro.ErrorHeader))
}
