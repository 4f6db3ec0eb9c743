package flows

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/api"
)

func TestBindAndParams(t *testing.T) {
	f := &api.Flow{Version: 1, Steps: []api.FlowStep{
		{Action: "set_value", App: "Notes", Locator: "role=text_field,name=${field}", Value: "${title}", Expect: `value:"${title}"`},
		{Action: "type", App: "Notes", Locator: "role=password_field,name=Password", Value: "${secret:password}"},
	}}
	if got := Params(f); !slices.Equal(got, []string{"field", "title", "password"}) {
		t.Fatalf("params %v", got)
	}
	s, err := Bind(f.Steps[0], map[string]string{"field": "Title", "title": "Errands"})
	if err != nil || s.Locator != "role=text_field,name=Title" || s.Value != "Errands" || s.Expect != `value:"Errands"` {
		t.Fatalf("bound %+v %v", s, err)
	}
	if err := Check(f, map[string]string{"field": "Title", "title": "x"}); model.CodeOf(err) != model.CodeBadRequest {
		t.Fatalf("a secret not given: %v", err)
	}
	if err := Check(f, map[string]string{"field": "Title", "title": "x", "password": "p"}); err != nil {
		t.Fatal(err)
	}
}

// Whatever a flow holds, Check answers: nil or a coded refusal, never a panic.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"version":1,"steps":[{"action":"click","app":"Notes","locator":"role=button,name=Save","expect":"dialog"}]}`), "title", "x")
	f.Add([]byte(`{"version":1,"steps":[{"action":"wait","app":"A","expect":"text:\"${t}\""}]}`), "t", "\"")
	f.Add([]byte(`{"version":1,"steps":[{"action":"key","app":"A","value":"${secret:p}"}]}`), "p", "")
	f.Fuzz(func(t *testing.T, data []byte, name, value string) {
		var flow api.Flow
		if json.Unmarshal(data, &flow) != nil {
			return
		}
		err := Check(&flow, map[string]string{name: value})
		if err != nil && model.AsError(err).Suggestion == "" {
			t.Fatalf("a refusal without a suggestion: %v", err)
		}
	})
}

func TestWindowChange(t *testing.T) {
	for value, op := range map[string]string{"move 40 30": "move", "resize 900 700.5": "resize", "raise": "raise", "minimize": "minimize", "close": "close"} {
		req, err := windowChange(api.FlowStep{Action: "window", App: "A", Value: value})
		if err != nil || req.Op != op {
			t.Errorf("%q: %+v %v", value, req, err)
		}
	}
	for _, value := range []string{"", "move 40", "move forty 30", "resize NaN 3", "raise now", "shake"} {
		if _, err := windowChange(api.FlowStep{Action: "window", App: "A", Value: value}); model.CodeOf(err) != model.CodeBadRequest {
			t.Errorf("%q: %v, want BAD_REQUEST", value, err)
		}
	}
}

// An agent's expect on its target's state by id (a snapshot's, gone by replay) is recorded as
// the element-free form, which tests the replay's own target; one on another element is not.
func TestOfTarget(t *testing.T) {
	for expr, want := range map[string]string{
		"state:e12=checked":     "state:checked",
		"state:e12!=checked":    "state!=checked",
		" state:e12=expanded ":  "state:expanded",
		"state:e13=checked":     "",
		"element:e12":           "",
		`text:"e12=checked"`:    "",
		"state:e120=checked":    "",
		"state:e12=checked,foo": "",
	} {
		if got := ofTarget(expr, "e12"); got != want {
			t.Errorf("ofTarget(%q, e12) = %q, want %q", expr, got, want)
		}
	}
}
