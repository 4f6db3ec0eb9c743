package observer

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestImportsStayPlatformFree proves the core knows no platform and no NATS: its dependency
// closure holds only the standard library.
func TestImportsStayPlatformFree(t *testing.T) {
	for _, goos := range []string{"linux", "darwin"} {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list (%s): %v\n%s", goos, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep != "github.com/axbus/axbus/observer" {
				t.Errorf("on %s observer depends on %s: the core must import the standard library only", goos, dep)
			}
		}
	}
}
