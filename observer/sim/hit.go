package sim

import (
	"context"
	"slices"

	"github.com/axbus/axbus/model"
)

// HitPath returns the handles from the window that shows (x, y) down to the deepest visible
// element there, as a physical click would hit it (hitTest, shared with Input so the two never
// disagree). It searches all of window's app's windows from the top: when another window lies
// over the point, the path is that window's, so an element beneath is not on it (covered).
// Nothing at the point gives an empty path. Like the other AX calls it pays latency, waits out a
// hang and meets transient faults; a window that is gone is an error, not an empty path.
func (d *Desktop) HitPath(ctx context.Context, window model.NodeRef, x, y float64) ([]model.NodeRef, error) {
	pid, _, id, err := parseRef(window)
	if err != nil {
		return nil, err
	}
	if err := d.callApp(ctx, pid); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	a, _, err := d.resolve(window)
	if err != nil {
		return nil, err
	}
	if a.take(FaultTransient, id, "") != nil {
		return nil, errTransient(a, id)
	}
	var path []model.NodeRef
	for n := a.hitTest(x, y); n != nil; n = n.parent {
		path = append(path, a.ref(n))
	}
	slices.Reverse(path)
	return path, nil
}
