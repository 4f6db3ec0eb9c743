package model

import (
	"slices"
	"testing"
)

// Every code says what a caller does about it, as one of the recoveries.
func TestEveryCodeHasARecovery(t *testing.T) {
	all := []Recovery{RecoverRetry, RecoverWait, RecoverInspect, RecoverChange, RecoverRestart, RecoverReport}
	for _, c := range CodeTable() {
		if !slices.Contains(all, c.Recovery) {
			t.Errorf("%s: recovery %q, want one of %v", c.Code, c.Recovery, all)
		}
	}
	if r := CodeStaleRef.Info().Recovery; r != RecoverInspect {
		t.Errorf("STALE_REF: %s, want inspect", r)
	}
}
