package bus

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"
)

// errorReply is the header and body of an error reply: micro's error headers (so that `nats`
// tools show it as a service error), our code, and the JSON error envelope.
func errorReply(e *model.Error) (nats.Header, []byte) {
	e = e.Bounded()
	if e.Recovery == "" {
		e.Recovery = e.Code.Info().Recovery
	}
	body, _ := json.Marshal(api.ErrorBody{Error: e})
	h := nats.Header{}
	h.Set(micro.ErrorHeader, strings.ReplaceAll(e.Message, "\n", " "))
	h.Set(micro.ErrorCodeHeader, strconv.Itoa(e.Code.Info().Status))
	h.Set(api.HeaderCode, string(e.Code))
	return h, body
}
