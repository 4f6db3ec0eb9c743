package ax

import (
	"context"

	"github.com/axbus/axbus/model"
)

// readParallel bounds the apps read at once. One app's elements are read one after another:
// an app answers AX requests on its main thread, one at a time.
const readParallel = 4

// Read reads each element in one AXUIElementCopyMultipleAttributeValues round trip plus its
// action names; an element met for the first time costs a round trip for its role first (the
// role decides whether AXValue may be read: a secure field's never is) and one per attribute
// whose settability makes a state.
func (b *Backend) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	if err := b.checkOpen(); err != nil {
		out := make([]model.Node, len(refs))
		for i, r := range refs {
			out[i] = model.Node{Ref: r, Err: err}
		}
		return out
	}
	return fanOut(ctx, refs, b.readNode, func(r model.NodeRef) model.Node {
		return model.Node{Ref: r, Err: errEnded(ctx, "the read of "+string(r))}
	})
}

// ReadBounds reads elements' frames alone: one small round trip each.
func (b *Backend) ReadBounds(ctx context.Context, refs []model.NodeRef) []model.Bounds {
	if err := b.checkOpen(); err != nil {
		out := make([]model.Bounds, len(refs))
		for i := range out {
			out[i].Err = err
		}
		return out
	}
	return fanOut(ctx, refs, b.readBounds, func(r model.NodeRef) model.Bounds {
		return model.Bounds{Err: errEnded(ctx, "the read of "+string(r))}
	})
}

func (b *Backend) readNode(_ context.Context, ref model.NodeRef) model.Node {
	ax, info, err := b.refs.acquire(ref)
	if err != nil {
		return model.Node{Ref: ref, Err: err}
	}
	defer release(ax)
	role, subrole := info.role, info.subrole
	if !info.roleRead {
		if role, subrole, err = b.readRole(ax, info.pid, ref); err != nil {
			return model.Node{Ref: ref, Err: err}
		}
	}
	vals, code := b.refs.copyValues(ax, NodeAttributes(role, subrole))
	if code != AXSuccess {
		return model.Node{Ref: ref, Err: b.callErr(code, info.pid, ref, "reading %s", ref)}
	}
	// NodeOf goes by the role just read, so a value read under an older role is dropped if the
	// element is secure now; an answer without a role leaves the known one.
	if r, s := stringOf(vals["AXRole"]), stringOf(vals["AXSubrole"]); r != "" && (r != role || s != subrole) {
		b.refs.setRole(ref, r, s)
	}
	actions, _ := actionNames(ax) // an element without actions may answer an error: it has none
	settable := info.settable
	if !info.asked {
		settable = settableAttrs(ax, SettableCandidates(role, subrole))
		b.refs.setSettable(ref, settable)
	}
	return NodeOf(ref, vals, actions, settable)
}

func (b *Backend) readBounds(_ context.Context, ref model.NodeRef) model.Bounds {
	ax, info, err := b.refs.acquire(ref)
	if err != nil {
		return model.Bounds{Err: err}
	}
	defer release(ax)
	vals, code := b.refs.copyValues(ax, BoundsAttributes)
	if code != AXSuccess {
		return model.Bounds{Err: b.callErr(code, info.pid, ref, "reading the bounds of %s", ref)}
	}
	return model.Bounds{Rect: FrameOf(vals)}
}

// readRole reads and records an element's role and subrole.
func (b *Backend) readRole(ax uintptr, pid int, ref model.NodeRef) (role, subrole string, err error) {
	vals, code := b.refs.copyValues(ax, RoleAttributes)
	if code != AXSuccess {
		return "", "", b.callErr(code, pid, ref, "reading the role of %s", ref)
	}
	role, subrole = stringOf(vals["AXRole"]), stringOf(vals["AXSubrole"])
	b.refs.setRole(ref, role, subrole)
	return role, subrole, nil
}

// roleOf is an element's role and subrole, as known or read.
func (b *Backend) roleOf(ref model.NodeRef) (role, subrole string, err error) {
	ax, info, err := b.refs.acquire(ref)
	if err != nil {
		return "", "", err
	}
	defer release(ax)
	if info.roleRead {
		return info.role, info.subrole, nil
	}
	return b.readRole(ax, info.pid, ref)
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// fanOut runs fn for every ref, the refs of one app in order and up to readParallel apps at
// once, and returns the results in order. When ctx ends first the refs not done get ended(ref)
// at once; calls in flight finish in the background (an AX call cannot be interrupted, the
// messaging timeout bounds it) into a channel big enough never to block them.
func fanOut[T any](ctx context.Context, refs []model.NodeRef, fn func(context.Context, model.NodeRef) T,
	ended func(model.NodeRef) T) []T {
	type result struct {
		i int
		v T
	}
	groups := map[int][]int{}
	var pids []int
	for i, r := range refs {
		pid, _, _ := parseRef(r) // a foreign handle goes in group 0, where fn reports it
		if _, ok := groups[pid]; !ok {
			pids = append(pids, pid)
		}
		groups[pid] = append(groups[pid], i)
	}
	results := make(chan result, len(refs))
	sem := make(chan struct{}, readParallel)
	for _, pid := range pids {
		go func(idx []int) {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			for _, i := range idx {
				if ctx.Err() != nil {
					return
				}
				results <- result{i, fn(ctx, refs[i])}
			}
		}(groups[pid])
	}
	out := make([]T, len(refs))
	done := make([]bool, len(refs))
	for range refs {
		select {
		case r := <-results:
			out[r.i], done[r.i] = r.v, true
		case <-ctx.Done():
			for i, r := range refs {
				if !done[i] {
					out[i] = ended(r)
				}
			}
			return out
		}
	}
	return out
}
