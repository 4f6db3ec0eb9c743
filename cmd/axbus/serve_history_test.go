package main

import (
	"strings"
	"testing"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/internal/testdaemon"
)

// TestServeHistoryMB: --history-mb bounds the event stream the daemon keeps (status says so);
// less than 1 is refused with what to give instead.
func TestServeHistoryMB(t *testing.T) {
	s := startServe(t, "--history-mb", "3")
	out, errOut, code := s.cli(t, "status", "--json")
	if code != 0 {
		t.Fatalf("status: exit %d %s", code, errOut)
	}
	st := testdaemon.Decode[api.StatusReply](t, out)
	if st.History == nil || st.History.Events.MaxBytes != 3<<20 {
		t.Fatalf("the event stream's bound: %+v, want 3 MiB", st.History)
	}
	_, errOut, code = runIn(t, "serve", "--backend", "sim", "--state-dir", t.TempDir(), "--history-mb", "0")
	if code != exitUsage || !strings.Contains(errOut, "--history-mb 1 or more") {
		t.Fatalf("--history-mb 0: exit %d %s", code, errOut)
	}
}
