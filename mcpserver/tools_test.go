package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/axbus/axbus/api"
)

// TestToolsAreEndpoints: every tool asks an endpoint that exists, every action endpoint is a
// tool, and every tool's schemas are self-contained objects.
func TestToolsAreEndpoints(t *testing.T) {
	asked := map[string]bool{}
	for _, tl := range tools {
		ep, ok := tl.endpointOf()
		if !ok {
			t.Fatalf("tool %s asks %s, which is no endpoint", tl.name, tl.endpoint)
		}
		asked[ep.Name] = true
		if tl.readOnly != (ep.Kind == api.Observe) {
			t.Errorf("tool %s: readOnly %v, but endpoint %s is %v", tl.name, tl.readOnly, ep.Name, ep.Kind)
		}
		in, out, err := toolSchemas(tl)
		if err != nil {
			t.Fatal(err)
		}
		for _, schema := range []json.RawMessage{in, out} {
			var m map[string]any
			if err := json.Unmarshal(schema, &m); err != nil || m["type"] != "object" || strings.Contains(string(schema), "urn:axbus") {
				t.Fatalf("tool %s: schema %.200s (%v)", tl.name, schema, err)
			}
		}
	}
	for _, name := range api.Actions {
		if !asked[name] {
			t.Errorf("action %s has no tool", name)
		}
	}
	if _, err := eventsOutput(); err != nil {
		t.Fatal(err)
	}
}

func TestCutSaysSo(t *testing.T) {
	long := strings.Repeat("e1 button \"Save\"\n", 4000)
	got := cut(long)
	if len(got) > maxText+200 || !strings.Contains(got, "cut at 32 KiB") || !strings.HasSuffix(strings.SplitN(got, "\n… cut", 2)[0], "\"Save\"") {
		t.Fatalf("cut: %d bytes, ends %q", len(got), got[len(got)-120:])
	}
	if cut("short") != "short" {
		t.Fatal("a short text was cut")
	}
}
