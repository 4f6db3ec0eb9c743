package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

// toolNamed is the table's tool of that name.
func toolNamed(t *testing.T, name string) tool {
	t.Helper()
	for _, tl := range tools {
		if tl.name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return tool{}
}

// TestArgumentsAreTheEndpointsRequest: a tool's arguments become its endpoint's request: the
// op the tool stands for, bare ids given the session's last listing, expect and wait_for's
// condition as wait requests; what a tool does not take is refused, saying what it takes.
func TestArgumentsAreTheEndpointsRequest(t *testing.T) {
	se := &session{}
	cases := []struct {
		tool, args string
		want       string // the request, or the error's message
	}{
		{"window_raise", `{"app":"Notes"}`, `{"app":"Notes","op":"raise"}`},
		{"clipboard_get", ``, `{"op":"get"}`},
		{"window_raise", `{"app":"Notes","op":"close"}`, `window_raise takes no argument "op"`},
		{"click", `{"target":"s_0123456789ab:e2","expect":"text:\"Saved\"","expect_timeout_ms":900}`,
			`{"expect":{"expr":"text:\"Saved\"","timeout_ms":900},"target":"s_0123456789ab:e2"}`},
		{"click", `{"target":"e2"}`, `e2 names an element of the last listing, and this session has had none`},
		{"click", `{"target":"s_0123456789ab:e2","expect":{"expr":"dialog"}}`, `expect is a condition's text, e.g. text:"Saved"`},
		{"click", `{"target":"s_0123456789ab:e2","expect_timeout_ms":900}`, `expect_timeout_ms without expect`},
		{"wait_for", `{"condition":"value:e7=42","timeout_ms":100}`, `condition e7 names an element of the last listing, and this session has had none`},
		{"wait_for", `{"condition":"dialog","app":"Notes","listing":true}`, `{"app":"Notes","expr":"dialog"}`},
		{"wait_for", `{"condition":"dialog >> role=button,name=OK","app":"Notes"}`, `{"app":"Notes","expr":"dialog \u003e\u003e role=button,name=OK"}`},
		{"inspect", `{"app":"Notes","find":"role=checkbox"}`, `{"app":"Notes"}`},
		{"inspect", `{"app":"Notes","find":"role=checkbox,"}`, `at column`},
		{"click", `[1]`, `arguments: json: cannot unmarshal array`},
	}
	for _, c := range cases {
		got, err := newCall(toolNamed(t, c.tool), se, json.RawMessage(c.args))
		if err != nil {
			if e := model.AsError(err); e.Code != model.CodeBadRequest || !strings.Contains(e.Message, c.want) || e.Suggestion == "" {
				t.Errorf("%s %s: %v (%s); want %s", c.tool, c.args, err, e.Suggestion, c.want)
			}
			continue
		}
		if string(got.req) != c.want {
			t.Errorf("%s %s: %s; want %s", c.tool, c.args, got.req, c.want)
		}
	}

	// Once the session has a listing, bare ids are its elements, in a target, a scope and a
	// condition.
	se.listed("s_aaaaaaaaaaaa")
	for _, c := range []struct{ tool, args, want string }{
		{"click", `{"target":"e2","expect":"value:e3=42"}`, `{"expect":{"expr":"value:e3=42","snapshot":"s_aaaaaaaaaaaa"},"target":"s_aaaaaaaaaaaa:e2"}`},
		{"click", `{"target":"s_0123456789ab:e2","expect":"text:\"Saved\""}`, `{"expect":{"expr":"text:\"Saved\""},"target":"s_0123456789ab:e2"}`},
		{"read_text", `{"scope":"e4"}`, `{"scope":"s_aaaaaaaaaaaa:e4"}`},
		{"wait_for", `{"condition":"state:e7=checked"}`, `{"expr":"state:e7=checked","snapshot":"s_aaaaaaaaaaaa"}`},
	} {
		if got, err := newCall(toolNamed(t, c.tool), se, json.RawMessage(c.args)); err != nil {
			t.Errorf("%s %s: %v", c.tool, c.args, err)
		} else if string(got.req) != c.want {
			t.Errorf("%s %s: %s; want %s", c.tool, c.args, got.req, c.want)
		}
	}
}
