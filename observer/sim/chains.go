package sim

import (
	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/ax"
)

// Chains are the macOS chains: the simulator imitates macOS, and every step they hold runs
// here (AXShowAlternateUI, AXOpen and the like do what a fixture's reactions make them do).
func (d *Desktop) Chains() observer.Chains { return ax.Chains() }
