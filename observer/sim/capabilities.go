package sim

import "github.com/axbus/axbus/observer"

// What the simulated desktop implements: the contract and every optional capability it has (see
// observer/capabilities.go), checked at compile time. Its trees are in memory, so it offers no
// cheaper reads (BoundsReader, ChildKnower, TextReader); it does not change windows, start apps
// or hold a clipboard, and has no platform roles or rechecks of its own.
var (
	_ observer.Backend          = (*Desktop)(nil)
	_ observer.HitTester        = (*Desktop)(nil)
	_ observer.ChainProvider    = (*Desktop)(nil)
	_ observer.ScreenReader     = (*Desktop)(nil)
	_ observer.WebAccessibility = (*Desktop)(nil)
	_ observer.ResourceReporter = (*Desktop)(nil)
)
