package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestLaunchTakesItsConnectionFlagsAnywhere (issue 33, 7): `launch --command PROGRAM -s URL
// --nkey F` reaches the daemon at URL as F's identity, rather than giving -s and --nkey to the
// program and asking the local default daemon; the program's own flags follow "--".
func TestLaunchTakesItsConnectionFlagsAnywhere(t *testing.T) {
	s := startSecDaemon(t)
	for _, args := range [][]string{
		{"launch", "--command", "true", "--server", s.url, "--nkey", s.agent.seed},
		{"launch", "--command", "--server", s.url, "--nkey", s.agent.seed, "--", "sh", "-c", "true"},
	} {
		before := s.endpointRequests(t, "launch")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var out, errb bytes.Buffer
		code := run(ctx, args, &out, &errb)
		cancel()
		t.Logf("axbus %s: exit %d %s%s", strings.Join(args, " "), code, out.String(), errb.String())
		if !strings.Contains(errb.String(), "agent1 may not run commands") {
			t.Errorf("axbus %s: %s, want the refusal of agent1 (the --nkey's identity)", strings.Join(args, " "), errb.String())
		}
		if got := s.endpointRequests(t, "launch") - before; got != 1 {
			t.Errorf("axbus %s: the daemon at --server had %d launch requests, want 1 (exit %d %s)", strings.Join(args, " "), got, code, errb.String())
		}
	}
}
