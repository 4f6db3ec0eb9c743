//go:build linux

package atspi

import (
	"context"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/godbus/dbus/v5"
)

// Bounds of the focus search used when no focus event was seen.
const (
	maxAncestors      = 64
	focusSearchNodes  = 4000
	focusSearchPeriod = 2 * time.Second
)

// focusMark is the element an app last reported focused, and when.
type focusMark struct {
	ref model.NodeRef
	at  time.Time
}

// trackFocus records focus events (called by the dispatcher for every app, watched or not).
func (b *Backend) trackFocus(bus string, ref model.NodeRef, on bool, at time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if on {
		b.focus[bus] = focusMark{ref: ref, at: at}
	} else if b.focus[bus].ref == ref {
		delete(b.focus, bus)
	}
}

// FocusPath returns the handles from the app's root down to its focused element. The element is
// the one the app last reported focused (object:state-changed:focused), if it still has the
// focused state; else it is searched in the app's active window, within bounds. nil, nil means
// that nothing in the app has focus.
func (b *Backend) FocusPath(ctx context.Context, pid int) ([]model.NodeRef, error) {
	a, err := b.busOf(ctx, pid)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	mark := b.focus[a.bus]
	b.mu.Unlock()
	if mark.ref != "" {
		focused, err := b.hasFocus(ctx, mark.ref)
		if err != nil {
			if e := model.AsError(err); e.Code == model.CodeAppGone || e.Code == model.CodeAppNotResponding || e.Code == model.CodeTimeout {
				return nil, e
			}
		}
		if focused {
			if path, ok := b.ancestors(ctx, a.bus, mark.ref); ok {
				return path, nil
			}
		}
	}
	ref, err := b.searchFocus(ctx, a)
	if err != nil || ref == "" {
		return nil, err
	}
	b.trackFocus(a.bus, ref, true, time.Now())
	path, ok := b.ancestors(ctx, a.bus, ref)
	if !ok {
		return nil, nil
	}
	return path, nil
}

// hasFocus reports whether ref has the focused state (and is not defunct).
func (b *Backend) hasFocus(ctx context.Context, ref model.NodeRef) (bool, error) {
	bus, path, ok := ParseRef(ref)
	if !ok {
		return false, nil
	}
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	var words []uint32
	if err := b.conn.Object(bus, dbus.ObjectPath(path)).CallWithContext(cctx, accessibleGetState, 0).Store(&words); err != nil {
		return false, b.callError(ctx, bus, path, accessibleGetState, err)
	}
	s := makeStateSet(words)
	return s.has(stateFocused) && !s.has(stateDefunct), nil
}

// parentOf returns ref's parent, from the cache or by asking.
func (b *Backend) parentOf(ctx context.Context, ref model.NodeRef) (model.NodeRef, bool) {
	if ri, ok := b.cache.get(ref); ok && ri.parent != "" {
		return ri.parent, true
	}
	bus, path, ok := ParseRef(ref)
	if !ok {
		return "", false
	}
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	var v dbus.Variant
	c := b.conn.Object(bus, dbus.ObjectPath(path)).CallWithContext(cctx, propsGet, 0, ifaceAccessible, "Parent")
	if c.Err != nil || c.Store(&v) != nil {
		return "", false
	}
	p := variantRef(v)
	if p == "" {
		return "", false
	}
	b.cache.update(ref, func(ri *refInfo) { ri.parent = p })
	return p, true
}

// ancestors returns the path from the app's root down to ref, climbing parents (cached where
// known), at most maxAncestors levels.
func (b *Backend) ancestors(ctx context.Context, bus string, ref model.NodeRef) ([]model.NodeRef, bool) {
	root := RootRef(bus)
	path := []model.NodeRef{ref}
	cur := ref
	for range maxAncestors {
		if cur == root {
			// reverse: root first
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path, true
		}
		p, ok := b.parentOf(ctx, cur)
		if !ok {
			return nil, false
		}
		if pb, _, _ := ParseRef(p); pb != bus {
			return nil, false // left the app without meeting its root
		}
		path = append(path, p)
		cur = p
	}
	return nil, false
}

// windowOf returns the top-level window that holds ref (the root's child on its path).
func (b *Backend) windowOf(ctx context.Context, bus string, ref model.NodeRef) (model.NodeRef, bool) {
	path, ok := b.ancestors(ctx, bus, ref)
	if !ok || len(path) < 2 {
		return "", false
	}
	return path[1], true
}

// searchFocus looks for the focused element of the app when no event told: in GTK4's cache
// (complete, one call) or breadth-first through the active window, pipelined a level at a time,
// descending only into showing elements where the toolkit maintains SHOWING (GTK3).
func (b *Backend) searchFocus(ctx context.Context, a *appInfo) (model.NodeRef, error) {
	ctx, cancel := context.WithTimeout(ctx, focusSearchPeriod)
	defer cancel()
	if a.gtk4 {
		if ref, ok := b.focusFromCache(ctx, a); ok {
			return ref, nil
		}
	}
	wins, err := b.listWindows(ctx, a)
	if err != nil {
		return "", err
	}
	if len(wins) == 0 {
		return "", nil
	}
	win := wins[0]
	for _, w := range wins {
		if w.Focused {
			win = w
		}
	}
	level := []model.NodeRef{win.Ref}
	seen := 0
	for len(level) > 0 && seen < focusSearchNodes && ctx.Err() == nil {
		type q struct {
			ref        model.NodeRef
			cSt, cKids *dbus.Call
		}
		qs := make([]q, 0, len(level))
		b.phase(ctx, false, func(c *caller) {
			for _, ref := range level {
				bus, path, _ := ParseRef(ref)
				qs = append(qs, q{ref: ref,
					cSt:   c.call(bus, path, accessibleGetState),
					cKids: c.call(bus, path, accessibleGetChildren)})
			}
		})
		seen += len(level)
		var next []model.NodeRef
		for _, x := range qs {
			var words []uint32
			if x.cSt.Store(&words) != nil {
				continue
			}
			s := makeStateSet(words)
			if s.has(stateFocused) && x.ref != win.Ref {
				return x.ref, nil
			}
			if !a.gtk4 && !s.has(stateShowing) && x.ref != win.Ref {
				continue
			}
			var kids []objRef
			if x.cKids.Store(&kids) != nil {
				continue
			}
			for _, k := range kids {
				if !isNullRef(k.Bus, string(k.Path)) {
					ref := MakeRef(k.Bus, string(k.Path))
					b.cache.update(ref, func(ri *refInfo) { ri.parent = x.ref })
					next = append(next, ref)
				}
			}
		}
		level = next
	}
	return "", nil
}

// cacheItem is one entry of Cache.GetItems: a((so)(so)(so)iiassusau).
type cacheItem struct {
	Self        objRef
	App         objRef
	Parent      objRef
	Index       int32
	ChildCount  int32
	Ifaces      []string
	Name        string
	Role        uint32
	Description string
	States      []uint32
}

// cacheItems reads the app's whole cache (complete on GTK4; GTK3's is partial).
func (b *Backend) cacheItems(ctx context.Context, bus string) ([]cacheItem, error) {
	cctx, cancel := context.WithTimeout(ctx, b.cfg.callTimeout)
	defer cancel()
	var items []cacheItem
	c := b.conn.Object(bus, cachePath).CallWithContext(cctx, cacheGetItems, 0)
	if c.Err != nil {
		return nil, b.callError(ctx, bus, cachePath, cacheGetItems, c.Err)
	}
	if err := c.Store(&items); err != nil {
		return nil, b.callError(ctx, bus, cachePath, cacheGetItems, err)
	}
	return items, nil
}

// focusFromCache finds the focused element in GTK4's cache, preferring one in the active window,
// and records the parents it learns.
func (b *Backend) focusFromCache(ctx context.Context, a *appInfo) (model.NodeRef, bool) {
	items, err := b.cacheItems(ctx, a.bus)
	if err != nil {
		return "", false
	}
	parent := make(map[model.NodeRef]model.NodeRef, len(items))
	states := make(map[model.NodeRef]stateSet, len(items))
	var focused []model.NodeRef
	for _, it := range items {
		self := MakeRef(it.Self.Bus, string(it.Self.Path))
		s := makeStateSet(it.States)
		states[self] = s
		if !isNullRef(it.Parent.Bus, string(it.Parent.Path)) {
			parent[self] = MakeRef(it.Parent.Bus, string(it.Parent.Path))
		}
		if s.has(stateFocused) && !isWindowRole(it.Role) {
			focused = append(focused, self)
		}
	}
	if len(focused) == 0 {
		return "", false
	}
	root := RootRef(a.bus)
	best := focused[0]
	for _, f := range focused {
		cur := f
		for range maxAncestors {
			p, ok := parent[cur]
			if !ok || p == root {
				break
			}
			cur = p
		}
		if states[cur].has(stateActive) {
			best = f
			break
		}
	}
	for i, cur := 0, best; i < maxAncestors; i++ {
		p, ok := parent[cur]
		if !ok {
			break
		}
		b.cache.update(cur, func(ri *refInfo) { ri.parent = p })
		if p == root {
			break
		}
		cur = p
	}
	return best, true
}
