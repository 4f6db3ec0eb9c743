package ax

import (
	"context"
	"slices"

	"github.com/axbus/axbus/model"
)

// maxDepth bounds the climb from the focused element to its app.
const maxDepth = 64

// FocusPath returns the handles from app pid's application element down to its focused
// element (AXFocusedUIElement, then AXParent up to the app); nil when nothing in the app has
// focus or the parents do not lead back to the app.
func (b *Backend) FocusPath(ctx context.Context, pid int) ([]model.NodeRef, error) {
	if err := b.checkOpen(); err != nil {
		return nil, err
	}
	app, err := b.appRef(pid)
	if err != nil {
		return nil, err
	}
	focused, err := b.elementAttr(app, "AXFocusedUIElement")
	if err != nil || focused == "" {
		return nil, err
	}
	path := []model.NodeRef{focused}
	for cur := focused; cur != app; {
		if len(path) > maxDepth {
			return nil, nil
		}
		if ctx.Err() != nil {
			return nil, errEnded(ctx, "finding the focused element")
		}
		parent, err := b.elementAttr(cur, "AXParent")
		if err != nil || parent == "" {
			return nil, err
		}
		path = append(path, parent)
		cur = parent
	}
	slices.Reverse(path)
	return path, nil
}

// elementAttr reads an attribute of ref whose value is an element; "" when it has none.
func (b *Backend) elementAttr(ref model.NodeRef, attr string) (model.NodeRef, error) {
	ax, info, err := b.refs.acquire(ref)
	if err != nil {
		return "", err
	}
	defer release(ax)
	v, code := b.refs.copyElement(ax, attr)
	switch code {
	case AXSuccess:
		return v, nil
	case AXNoValue, AXAttributeUnsupported:
		return "", nil
	}
	return "", b.callErr(code, info.pid, ref, "reading %s of %s", attr, ref)
}
