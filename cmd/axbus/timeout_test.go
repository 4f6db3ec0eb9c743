package main

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
	"github.com/axbus/axbus/observer/sim"
)

// TestTimeoutIsTheOutcomes: --timeout is how long the user waits for the outcome. A wait's
// condition and an action's expect that hold only after 6 s, past the 5 s default, are met with
// --timeout 10s (the reply deadline follows from it); a short --timeout ends a wait as TIMEOUT,
// not as a lost reply; --for, its old name, still works.
func TestTimeoutIsTheOutcomes(t *testing.T) {
	d := startTestDaemon(t)
	desk := d.Backend.(*sim.Desktop)
	const late = 6 * time.Second
	start := time.Now()
	var wg sync.WaitGroup
	type outcome struct {
		out, errOut string
		code        int
		took        time.Duration
	}
	var waited, acted outcome
	run := func(o *outcome, args ...string) {
		wg.Go(func() {
			o.out, o.errOut, o.code = d.cli(t, args...)
			o.took = time.Since(start)
		})
	}
	run(&waited, "wait", `text:"Ready at last"`, "--app", "Notes", "--timeout", "10s", "--json")
	run(&acted, "focus", "role=button,name=Save", "--app", "Notes", "--expect", `text:"Ready at last"`, "--timeout", "10s", "--json")
	changed := time.AfterFunc(late, func() {
		if err := desk.SetValue(501, "title", "Ready at last"); err != nil {
			t.Error(err)
		}
	})
	defer changed.Stop()
	wg.Wait()
	t.Logf("wait met after %v, focus's expect after %v", waited.took, acted.took)
	if r := testdaemon.Decode[api.WaitResult](t, waited.out); waited.code != 0 || r.Outcome != api.WaitMet || waited.took < late {
		t.Fatalf("wait --timeout 10s for what shows after %v: exit %d after %v\n%s%s", late, waited.code, waited.took, waited.out, waited.errOut)
	}
	if r := testdaemon.Decode[api.ActionReply](t, acted.out); acted.code != 0 || r.Expect == nil || r.Expect.Outcome != api.WaitMet || acted.took < late {
		t.Fatalf("focus --expect --timeout 10s for what shows after %v: exit %d after %v\n%s%s", late, acted.code, acted.took, acted.out, acted.errOut)
	}

	for _, flag := range []string{"--timeout", "--for"} {
		began := time.Now()
		_, errOut, code := d.cli(t, "wait", `text:"never shown"`, "--app", "notes", flag, "300ms")
		if code != exitTimeout || !strings.Contains(errOut, "did not hold within 300ms") || !strings.Contains(errOut, "--timeout") {
			t.Fatalf("%s 300ms: exit %d after %v: %s", flag, code, time.Since(began), errOut)
		}
	}
	if _, errOut, code := d.cli(t, "wait", `element:role=buton`, "--app", "notes"); code != exitUsage || !strings.Contains(errOut, `"button"`) {
		t.Fatalf("a misspelt role: exit %d: %s", code, errOut)
	}
}
