package sim

import (
	"context"
	"slices"

	"github.com/axbus/axbus/model"
)

// Apps lists the running apps. The first running app is the active one.
func (d *Desktop) Apps(ctx context.Context) ([]model.App, error) {
	if _, err := d.call(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, errClosed()
	}
	var out []model.App
	for _, a := range d.apps {
		if !a.dead {
			info := a.info()
			info.Active = len(out) == 0
			out = append(out, info)
		}
	}
	return out, nil
}

// Windows lists an app's top-level windows (dialogs among them) and, after each window, the
// sheets attached to it: a sheet is both its own entry, role sheet, and a child of its window.
func (d *Desktop) Windows(ctx context.Context, pid int) ([]model.Window, error) {
	if err := d.callApp(ctx, pid); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	a, err := d.live(pid)
	if err != nil {
		return nil, err
	}
	if a.take(FaultTransient, "", "") != nil {
		return nil, errTransient(a, "")
	}
	var out []model.Window
	add := func(w *node) {
		role := w.normalisedRole()
		out = append(out, model.Window{
			ID: w.id, Title: w.title, Role: role, Bounds: w.bounds(), Focused: w == a.focusedWindow,
			Modal: w.modal || role == model.RoleSheet, Ref: a.ref(w),
		})
	}
	for _, w := range a.windows {
		if w.hidden {
			continue
		}
		add(w)
		for _, c := range w.children {
			if c.role == "AXSheet" {
				add(c)
			}
		}
	}
	return out, nil
}

// Read reads many elements at once. A batch costs one round trip however many elements it
// holds (a pipelined backend); each element still meets the transient faults aimed at it.
func (d *Desktop) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	out := make([]model.Node, len(refs))
	var pids []int
	seen := map[int]bool{}
	for _, r := range refs {
		if pid, _, _, err := parseRef(r); err == nil && !seen[pid] {
			seen[pid] = true
			pids = append(pids, pid)
		}
	}
	hung, err := d.call(ctx, pids...)
	if err != nil {
		for i, r := range refs {
			out[i] = model.Node{Ref: r, Err: err}
		}
		return out
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, r := range refs {
		out[i] = d.readOne(r, hung)
	}
	return out
}

// readOne reads one element; callers hold d.mu.
func (d *Desktop) readOne(ref model.NodeRef, hung map[int]error) model.Node {
	pid, _, id, err := parseRef(ref)
	if err == nil {
		err = hung[pid]
	}
	if err != nil {
		return model.Node{Ref: ref, Err: err}
	}
	a, n, err := d.resolve(ref)
	if err != nil {
		return model.Node{Ref: ref, Err: err}
	}
	if a.take(FaultTransient, id, "") != nil {
		return model.Node{Ref: ref, Err: errTransient(a, id)}
	}
	return a.read(n)
}

// FocusPath returns the handles from the focused element's window down to the element.
func (d *Desktop) FocusPath(ctx context.Context, pid int) ([]model.NodeRef, error) {
	if err := d.callApp(ctx, pid); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	a, err := d.live(pid)
	if err != nil {
		return nil, err
	}
	if a.take(FaultTransient, "", "") != nil {
		return nil, errTransient(a, "")
	}
	var path []model.NodeRef
	for n := a.focus; n != nil; n = n.parent {
		path = append(path, a.ref(n))
	}
	slices.Reverse(path)
	return path, nil
}
