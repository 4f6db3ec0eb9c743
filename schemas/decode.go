package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

// emptyOK caches, per request schema, whether {} is a valid request: an empty request (status,
// apps) is then checked once, not on every call.
var emptyOK sync.Map // schema name -> bool

func emptyValid(schema string) bool {
	if ok, known := emptyOK.Load(schema); known {
		return ok.(bool)
	}
	ok := Validate(schema, []byte("{}")) == nil
	emptyOK.Store(schema, ok)
	return ok
}

// DecodeRequest checks a request body against the endpoint's schema and decodes it into v.
// An empty body means {}. Every failure is a BAD_REQUEST or PAYLOAD_TOO_LARGE *model.Error
// naming what is wrong and where.
func DecodeRequest(endpoint string, data []byte, v any) *model.Error {
	schema := endpoint + ".request"
	if len(data) > api.MaxRequest {
		return model.Errorf(model.CodePayloadTooLarge, "Send a smaller request; requests are at most 1 MiB.",
			"request of %d bytes is larger than %d bytes", len(data), api.MaxRequest).With("bytes", len(data))
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || string(trimmed) == "{}" {
		if emptyValid(schema) {
			return nil // v stays its zero value, which is what {} decodes to
		}
		data = []byte("{}")
	}
	if err := Validate(schema, data); err != nil {
		var ie *InvalidError
		if errors.As(err, &ie) {
			for i := range ie.Problems { // the validator quotes the value it refuses, whatever its size
				ie.Problems[i].Error = model.Excerpt(ie.Problems[i].Error)
			}
		}
		e := model.Errorf(model.CodeBadRequest, "See the request's schema with: axbus schema "+schema,
			"%s request %v", endpoint, err).With("schema", schema)
		if ie != nil {
			if ie.Offset >= 0 {
				e.With("offset", ie.Offset)
			} else {
				e.With("problems", ie.Problems)
			}
		}
		return e
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil { // the schema should have caught it: say so clearly anyway
		return model.Errorf(model.CodeBadRequest, "See the request's schema with: axbus schema "+schema,
			"%s request: %v", endpoint, err).With("schema", schema)
	}
	return nil
}
