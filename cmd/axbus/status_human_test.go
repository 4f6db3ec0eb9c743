package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/axbus/axbus/api"
)

// On a terminal status ends with one line for the process and one for the backend's resources,
// after the rest as JSON.
func TestStatusHumanForm(t *testing.T) {
	r := &api.StatusReply{Host: "h", Backend: "atspi",
		Process:   &api.ProcessStatus{PID: 42, Goroutines: 85, HeapBytes: 12 << 20, RSSBytes: 45 << 20, FDs: 31, UptimeSec: 3720},
		Resources: map[string]int{"peer_connections": 2, "apps": 3}}
	var out bytes.Buffer
	if err := humanForm(r)(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	last2 := lines[len(lines)-2:]
	if want := "process    pid 42, 85 goroutines, heap 12.0 MiB, rss 45.0 MiB, 31 fds, up 1h2m0s"; last2[0] != want {
		t.Errorf("process line %q, want %q", last2[0], want)
	}
	if want := "resources  apps 3, peer_connections 2"; last2[1] != want {
		t.Errorf("resources line %q, want %q", last2[1], want)
	}
	var rest map[string]any
	if err := json.Unmarshal([]byte(strings.Join(lines[:len(lines)-2], "\n")), &rest); err != nil || rest["host"] != "h" {
		t.Errorf("the rest is not the reply's JSON: %v\n%s", err, text)
	}
	if _, ok := rest["process"]; ok {
		t.Errorf("the process is told twice:\n%s", text)
	}
	r.Process.RSSBytes, r.Process.FDs = 0, -1 // macOS
	if got := processLine(r.Process); strings.Contains(got, "rss") || strings.Contains(got, "fds") {
		t.Errorf("uncounted parts shown: %q", got)
	}
}
