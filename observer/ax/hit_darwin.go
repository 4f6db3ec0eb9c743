package ax

import (
	"context"

	"github.com/axbus/axbus/model"
)

// HitPath asks macOS which element is at the global point (x, y), whatever app shows it
// (AXUIElementCopyElementAtPosition on the system-wide element: the window server's stacking
// decides, so another window over the point wins), then climbs AXParent from it to its window
// (window itself, or any AXWindow) or app, and returns that chain top-down. Nothing at the point
// is an empty path. window names the app for errors of the hit test itself.
func (b *Backend) HitPath(ctx context.Context, window model.NodeRef, x, y float64) ([]model.NodeRef, error) {
	if err := b.checkOpen(); err != nil {
		return nil, err
	}
	info, ok := b.refs.info(window)
	if !ok {
		return nil, errUnknownRef(window)
	}
	var hit uintptr
	switch code := axUIElementCopyElementAtPosition(systemWide(), float32(x), float32(y), &hit); code {
	case AXSuccess:
	case AXNoValue:
		return nil, nil
	default:
		// "" as the ref: a failed hit test says nothing about window itself, which must stay known.
		return nil, b.callErr(code, info.pid, "", "hit-testing the point (%v, %v)", x, y)
	}
	if hit == 0 {
		return nil, nil
	}
	deepest := b.refs.intern(hit) // "" for an element of no process: an empty path
	release(hit)
	return climbHitPath(deepest, window, func(ref model.NodeRef) (string, model.NodeRef, error) {
		if ctx.Err() != nil {
			return "", "", errEnded(ctx, "the hit test")
		}
		return b.hitStep(ref)
	})
}

// hitAttributes are what each step of the climb reads, in one round trip: the role tells a
// window (where the climb ends), the subrole is read with it so the handle table's role stays
// whole, the parent is the next step.
var hitAttributes = []string{"AXRole", "AXSubrole", "AXParent"}

// hitStep reads the role and parent of ref in one round trip, noting the role in the handle
// table as readRole does.
func (b *Backend) hitStep(ref model.NodeRef) (string, model.NodeRef, error) {
	ax, info, err := b.refs.acquire(ref)
	if err != nil {
		return "", "", err
	}
	defer release(ax)
	vals, code := b.refs.copyValues(ax, hitAttributes)
	if code != AXSuccess {
		return "", "", b.callErr(code, info.pid, ref, "reading the parent of %s", ref)
	}
	role := stringOf(vals["AXRole"])
	if role != "" {
		b.refs.setRole(ref, role, stringOf(vals["AXSubrole"]))
	}
	parent, _ := vals["AXParent"].(model.NodeRef)
	return role, parent, nil
}
