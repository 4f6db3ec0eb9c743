package api_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAPIKnowsNoTransport: the wire types import no NATS, no schema validator and no platform
// package, so a program that decodes events needs nothing else.
func TestAPIKnowsNoTransport(t *testing.T) {
	for _, goos := range []string{"linux", "darwin"} {
		cmd := exec.Command("go", "list", "-deps", "./")
		cmd.Env = append(cmd.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, banned := range []string{"nats-io", "jsonschema", "godbus", "purego", "jezek/xgb", "/observer/", "/bus", "/schemas", "golang.org/x/sys"} {
				if strings.Contains(dep, banned) {
					t.Errorf("GOOS=%s: api depends on %s", goos, dep)
				}
			}
		}
	}
}
