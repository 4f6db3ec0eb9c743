package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// axbus doctor on a private headless desktop: every check passes and the report says what it
// saw; a backend that cannot open is a failed check with its fix, and a non-zero exit.
func TestDoctor(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"doctor", "--headless", "always", "--watch", "2s"}, &out, &errb)
	report := out.String()
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, report, errb.String())
	}
	for _, want := range []string{"ok    headless desktop", "axbus-fixture-gtk3", "ok    accessibility backend  atspi",
		"ok    inspect", `"axbus fixture (GTK3)"`, "ok    events", "state_changed", "all checks passed"} {
		if !strings.Contains(report, want) {
			t.Fatalf("the report lacks %q:\n%s", want, report)
		}
	}

	out.Reset()
	errb.Reset()
	code = run(ctx, []string{"doctor", "--headless", "never", "--backend", "nope"}, &out, &errb)
	if code != exitUsage || !strings.Contains(out.String(), "FAIL  accessibility backend") || !strings.Contains(out.String(), "fix: Choose one of") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
}
