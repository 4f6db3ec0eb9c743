package ax

import (
	"slices"

	"github.com/axbus/axbus/model"
)

// The platform-free part of HitPath (hit_darwin.go): the climb from the element macOS hit-tests
// at a point up to its window, kept here so that it is tested on every OS.

// maxHitDepth bounds the climb: a parent chain that never reaches a window or the app (a
// broken AX tree) must not hold the call.
const maxHitDepth = 64

// hitStep reads one element of the climb: its role and its parent ("" when it has none).
type hitStep func(ref model.NodeRef) (role string, parent model.NodeRef, err error)

// climbHitPath returns the path from the top of deepest's chain down to deepest: it climbs
// parents until window (the one asked about, which may be a sheet), an element of role
// AXWindow or AXApplication (an element outside any window: the menu bar), a missing parent, a
// cycle or maxHitDepth levels, whichever comes first. A bounded climb keeps what it climbed:
// its caller asks only whether an element is on the path. An error of a step is returned.
func climbHitPath(deepest, window model.NodeRef, step hitStep) ([]model.NodeRef, error) {
	var path []model.NodeRef
	for cur := deepest; cur != "" && len(path) < maxHitDepth && !slices.Contains(path, cur); {
		path = append(path, cur)
		if cur == window {
			break
		}
		role, parent, err := step(cur)
		if err != nil {
			return nil, err
		}
		if role == "AXWindow" || role == "AXApplication" {
			break
		}
		cur = parent
	}
	slices.Reverse(path)
	return path, nil
}
