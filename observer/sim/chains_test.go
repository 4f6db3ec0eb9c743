package sim

import (
	"slices"
	"testing"

	"github.com/axbus/axbus/observer"
)

// Every AX step of the macOS chains is one the simulator knows: an action it performs (or a
// fixture may list), an attribute it can set.
func TestChainStepsAreSimulated(t *testing.T) {
	known := []string{"AXPress", "AXConfirm", "AXOpen", "AXScrollToVisible", "AXExpand", "AXCollapse", observer.Dynamic}
	var check func(a string, s observer.Step)
	check = func(a string, s observer.Step) {
		switch s.Kind {
		case observer.StepPerform:
			if !slices.Contains(known, s.Action) {
				t.Errorf("%s: the simulator does not know %s", a, s.Action)
			}
		case observer.StepSetAttr, observer.StepWithFocus:
			if !slices.Contains(settableAttributes, s.Attr) {
				t.Errorf("%s: the simulator cannot set %s", a, s.Attr)
			}
		}
		if s.Inner != nil {
			check(a, *s.Inner)
		}
	}
	for a, c := range (&Desktop{}).Chains() {
		for _, s := range c.Steps {
			check(a, s)
		}
	}
}
