package model

import (
	"testing"
)

// Disabled is what a locator's check, an action by id and the text form all call disabled: an
// element that reports states without enabled; one that reports none says nothing.
func TestDisabledNeedsStates(t *testing.T) {
	for _, c := range []struct {
		s    States
		want bool
	}{
		{0, false},
		{StateEnabled, false},
		{StateEnabled | StateVisible | StateShowing, false},
		{StateVisible | StateShowing, true},
		{StateFocusable, true},
	} {
		if got := c.s.Disabled(); got != c.want {
			t.Errorf("%v.Disabled() = %v, want %v", c.s, got, c.want)
		}
	}
}
