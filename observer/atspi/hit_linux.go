//go:build linux

package atspi

import (
	"context"
	"math"
	"slices"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"
)

// maxHitDepth bounds the descent of HitPath: a toolkit that keeps answering with new objects
// (a cycle through more than one object) must not hold the call forever.
const maxHitDepth = 64

// HitPath lists the elements at the screen point (x, y) from window down, asking
// Component.GetAccessibleAtPoint of the window, then of each answer, until an answer is null or
// the element asked (a leaf answers itself). A point outside the window's bounds (or a window
// with none, off-screen) gives an empty path, as AT-SPI's window cannot say what lies there.
// AT-SPI hit-tests within one window only: another window stacked over the point is not seen.
// For toolkits that answer in window coordinates (GTK4) the point is made relative to the
// window's screen origin first, as screenRect adds it to their extents.
func (b *Backend) HitPath(ctx context.Context, window model.NodeRef, x, y float64) ([]model.NodeRef, error) {
	bus, _, err := b.target(window)
	if err != nil {
		return nil, err
	}
	wb := b.ReadBounds(ctx, []model.NodeRef{window})[0]
	if wb.Err != nil {
		return nil, wb.Err
	}
	if r := wb.Rect; r == nil || x < r.X || y < r.Y || x >= r.X+r.W || y >= r.Y+r.H {
		return nil, nil
	}
	coord := coordScreen
	if a := b.ensureApps(ctx, map[string]bool{bus: true})[bus]; a != nil && a.windowCoords {
		o := b.windowOrigin(ctx, a, window, originCache{})
		x, y, coord = x-o.x, y-o.y, coordWindow
	}
	px, py := int32(math.Floor(x)), int32(math.Floor(y))
	path := []model.NodeRef{window}
	for cur := window; len(path) < maxHitDepth; {
		next, err := b.accessibleAt(ctx, cur, px, py, coord)
		if err != nil {
			return nil, err
		}
		if next == "" || next == cur {
			if next = b.embeddedChild(ctx, cur); next == "" {
				break
			}
		}
		path = append(path, next)
		cur = next
	}
	return b.fillHitPath(ctx, path), nil
}

// fillHitPath completes a descent whose answers skipped levels: GTK 4.8 answers with the deepest
// widget at the point (gtk_widget_pick), not the child that holds it, so the button around a
// label would be missing and taken for covered. It climbs Accessible.Parent from the deepest
// element until it meets an element of the descent and puts the climbed ancestors in between.
// Where the climb fails (an element gone, no parent) the descent is kept as it is.
func (b *Backend) fillHitPath(ctx context.Context, path []model.NodeRef) []model.NodeRef {
	if len(path) < 2 {
		return path
	}
	var up []model.NodeRef // the deepest's missing ancestors, bottom up
	for cur := path[len(path)-1]; len(path)+len(up) < maxHitDepth; {
		p, ok := b.parentOf(ctx, cur)
		if !ok {
			return path
		}
		if i := slices.Index(path, p); i == len(path)-1 {
			return path // a toolkit that names an element its own parent
		} else if i >= 0 {
			slices.Reverse(up)
			return slices.Concat(path[:i+1], up, path[len(path)-1:])
		}
		up = append(up, p)
		cur = p
	}
	return path
}

// embeddedChild is the one child of a socket (WebKitGTK's web view), which answers no
// GetAccessibleAtPoint and lists no children though it counts one: the plug of another process,
// asked by index, where the descent goes on. "" for anything else.
func (b *Backend) embeddedChild(ctx context.Context, ref model.NodeRef) model.NodeRef {
	bus, path, _ := ParseRef(ref)
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	obj := b.conn.Object(bus, dbus.ObjectPath(path))
	var count dbus.Variant
	var kids []objRef
	if obj.CallWithContext(cctx, propsGet, 0, ifaceAccessible, "ChildCount").Store(&count) != nil || count.Value() != int32(1) ||
		obj.CallWithContext(cctx, accessibleGetChildren, 0).Store(&kids) != nil || len(kids) != 0 {
		return ""
	}
	var at objRef
	if obj.CallWithContext(cctx, accessibleGetChildAtIndex, 0, int32(0)).Store(&at) != nil || isNullRef(at.Bus, string(at.Path)) {
		return ""
	}
	return MakeRef(at.Bus, string(at.Path))
}

// accessibleAt is ref's child at the point (Component.GetAccessibleAtPoint), "" for none.
func (b *Backend) accessibleAt(ctx context.Context, ref model.NodeRef, x, y int32, coord uint32) (model.NodeRef, error) {
	bus, path, _ := ParseRef(ref)
	const method = ifaceComponent + ".GetAccessibleAtPoint"
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	var at objRef
	if err := b.conn.Object(bus, dbus.ObjectPath(path)).CallWithContext(cctx, method, 0, x, y, coord).Store(&at); err != nil {
		return "", b.callError(ctx, bus, path, method, err)
	}
	if isNullRef(at.Bus, string(at.Path)) {
		return "", nil
	}
	return MakeRef(at.Bus, string(at.Path)), nil
}
