//go:build linux

package atspi

import (
	"context"
	"math"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"
)

// The coordinate types of Component.GetExtents.
const (
	coordScreen uint32 = 0
	coordWindow uint32 = 1
)

// ReadBounds reads elements' bounds alone, one pipelined GetExtents each: how the visible-clip
// walk finds the on-screen rows of a long list before reading any of them in full.
func (b *Backend) ReadBounds(ctx context.Context, refs []model.NodeRef) []model.Bounds {
	out := make([]model.Bounds, len(refs))
	type query struct {
		i         int
		bus, path string
		app       *appInfo
		call      *dbus.Call
	}
	var qs []*query
	buses := map[string]bool{}
	for i, ref := range refs {
		bus, path, ok := ParseRef(ref)
		if !ok {
			out[i].Err = errNotOurs(ref)
			continue
		}
		buses[bus] = true
		qs = append(qs, &query{i: i, bus: bus, path: path})
	}
	if b.isClosed() {
		for i := range out {
			out[i].Err = errClosed()
		}
		return out
	}
	apps := b.ensureApps(ctx, buses)
	b.phase(ctx, b.cfg.sequential, func(c *caller) {
		for _, q := range qs {
			q.app = apps[q.bus]
			coord := coordScreen
			if q.app != nil && q.app.windowCoords {
				coord = coordWindow
			}
			q.call = c.call(q.bus, q.path, componentGetExtents, coord)
		}
	})
	origins := originCache{}
	for _, q := range qs {
		if q.call == nil || q.call.Err != nil {
			err := ctx.Err()
			if q.call != nil {
				err = q.call.Err
			}
			out[q.i].Err = b.callError(ctx, q.bus, q.path, componentGetExtents, err)
			continue
		}
		var e extents
		if err := q.call.Store(&e); err != nil {
			out[q.i].Err = b.callError(ctx, q.bus, q.path, componentGetExtents, err)
			continue
		}
		out[q.i].Rect, out[q.i].Offscreen = b.screenRect(ctx, q.app, refs[q.i], e, origins)
	}
	return out
}

// extents is Component.GetExtents' answer: (iiii).
type extents struct{ X, Y, W, H int32 }

// screenRect turns extents into global bounds: INT_MIN coordinates or an empty size mean the
// element is off-screen; window coordinates (GTK4) get their window's screen position added.
func (b *Backend) screenRect(ctx context.Context, app *appInfo, ref model.NodeRef, e extents, origins originCache) (*model.Rect, bool) {
	if e.X == math.MinInt32 || e.Y == math.MinInt32 || e.W <= 0 || e.H <= 0 {
		return nil, true
	}
	r := model.Rect{X: float64(e.X), Y: float64(e.Y), W: float64(e.W), H: float64(e.H)}
	if app != nil && app.windowCoords {
		o := b.windowOrigin(ctx, app, ref, origins)
		r.X += o.x
		r.Y += o.y
	}
	return &r, false
}
