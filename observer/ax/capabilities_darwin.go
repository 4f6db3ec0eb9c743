package ax

import "github.com/axbus/axbus/observer"

// What the backend implements: the contract and every optional capability it has (see
// observer/capabilities.go), checked at compile time; all but ChildKnower, TextReader and
// RecheckGate.
var (
	_ observer.Backend          = (*Backend)(nil)
	_ observer.BoundsReader     = (*Backend)(nil)
	_ observer.HitTester        = (*Backend)(nil)
	_ observer.ChainProvider    = (*Backend)(nil)
	_ observer.PlatformRoler    = (*Backend)(nil)
	_ observer.ScreenReader     = (*Backend)(nil)
	_ observer.WindowChanger    = (*Backend)(nil)
	_ observer.AppLauncher      = (*Backend)(nil)
	_ observer.Clipboard        = (*Backend)(nil)
	_ observer.WebAccessibility = (*Backend)(nil)
	_ observer.InputWatcher     = (*Backend)(nil)
)
