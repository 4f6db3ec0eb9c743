package schemas

import (
	"strings"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

func TestDecodeRequestRefusals(t *testing.T) {
	for _, c := range []struct {
		name, body string
		code       model.Code
		detail     string
	}{
		{"malformed", `{"app": "Notes"`, model.CodeBadRequest, "offset"},
		{"unknown field", `{"app": "Notes", "colour": 1}`, model.CodeBadRequest, "problems"},
		{"wrong type", `{"pid": "501"}`, model.CodeBadRequest, "problems"},
		{"no target", `{}`, model.CodeBadRequest, "problems"},
		{"too big", `{"app": "` + strings.Repeat("x", 2<<20) + `"}`, model.CodePayloadTooLarge, "bytes"},
	} {
		var req api.InspectRequest
		err := DecodeRequest("inspect", []byte(c.body), &req)
		if err == nil || err.Code != c.code || err.Suggestion == "" || err.Details[c.detail] == nil {
			t.Errorf("%s: got %+v, want %s with a suggestion and detail %q", c.name, err, c.code, c.detail)
		}
	}
	var req api.InspectRequest
	if err := DecodeRequest("inspect", []byte(`{"pid": 501, "window": "Main"}`), &req); err != nil || req.PID != 501 || req.Window != "Main" {
		t.Fatalf("valid request: %v %+v", err, req)
	}
	var apps api.AppsRequest
	if err := DecodeRequest("apps", nil, &apps); err != nil {
		t.Fatalf("an empty body is {}: %v", err)
	}
}

// FuzzDecodeRequest: whatever arrives, decoding answers with nil or a clear BAD_REQUEST /
// PAYLOAD_TOO_LARGE error, and never panics.
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{`{}`, `{"app":"Notes"}`, `{"pid":1,"window":"w"}`, `{"pid":-1}`, `[`, `null`,
		`{"app":"\u0000"}`, `{"pid":1e400}`, `{"app":"a","app":"b"}`, `"x"`, `{"pid":9007199254740993}`} {
		f.Add("inspect", []byte(s))
		f.Add("windows", []byte(s))
		f.Add("apps", []byte(s))
		f.Add("read", []byte(s))
	}
	f.Add("inspect", []byte(`{"scope":"s_0a:e1"}`))
	f.Add("read", []byte(`{"scope":"s_0a:e1","limit":10}`))
	f.Fuzz(func(t *testing.T, endpoint string, body []byte) {
		var v any
		switch endpoint {
		case "inspect":
			v = &api.InspectRequest{}
		case "windows":
			v = &api.WindowsRequest{}
		case "read":
			v = &api.ReadRequest{}
		default:
			endpoint, v = "apps", &api.AppsRequest{}
		}
		if err := DecodeRequest(endpoint, body, v); err != nil {
			if err.Code != model.CodeBadRequest && err.Code != model.CodePayloadTooLarge {
				t.Fatalf("code %s for %q", err.Code, body)
			}
			if err.Message == "" || err.Suggestion == "" {
				t.Fatalf("error without message or suggestion for %q", body)
			}
		}
	})
}
