package ax

import (
	"context"

	"github.com/axbus/axbus/model"
)

// Perform performs an AX action ("AXPress", "AXShowMenu", ...). AX may answer CannotComplete
// although the action happened (the app was slow to reply): that is TRANSIENT, whose suggestion
// says to check before retrying; the executor observes the result rather than trusting it.
func (b *Backend) Perform(ctx context.Context, ref model.NodeRef, action string) error {
	if err := b.checkCall(ctx, action, "action"); err != nil {
		return err
	}
	ax, info, err := b.refs.acquire(ref)
	if err != nil {
		return err
	}
	defer release(ax)
	act := createString(action)
	defer release(act)
	code := axUIElementPerformAction(ax, act)
	if code == AXActionUnsupported {
		actions, _ := actionNames(ax)
		return model.AsError(b.callErr(code, info.pid, ref, "%s on %s", action, ref)).With("actions", actions)
	}
	return b.callErr(code, info.pid, ref, "%s on %s", action, ref)
}

// SetAttribute sets an AX attribute: a string becomes a CFString (a number for the AXValue of a
// slider, stepper or checkbox when it reads as one), a float64 a CFNumber, a bool a CFBoolean,
// and element handles ([]model.NodeRef, or one) a CFArray of elements (AXSelectedRows). A
// secure field's AXValue may be set, never read back; values are never logged.
func (b *Backend) SetAttribute(ctx context.Context, ref model.NodeRef, attr string, value any) error {
	if err := b.checkCall(ctx, attr, "attribute"); err != nil {
		return err
	}
	ax, info, err := b.refs.acquire(ref)
	if err != nil {
		return err
	}
	defer release(ax)
	role := info.role
	if !info.roleRead {
		if role, _, err = b.readRole(ax, info.pid, ref); err != nil {
			return err
		}
	}
	v, err := b.createValue(CoerceValue(role, attr, value))
	if err != nil {
		return err
	}
	defer release(v)
	a := createString(attr)
	defer release(a)
	return b.callErr(axUIElementSetAttributeValue(ax, a, v), info.pid, ref, "setting %s of %s", attr, ref)
}

// checkCall refuses a call on a closed backend, with an ended ctx or without a name.
func (b *Backend) checkCall(ctx context.Context, name, what string) error {
	if err := b.checkOpen(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return errEnded(ctx, "the "+what+" "+name)
	}
	if name == "" {
		return model.Errorf(model.CodeBadRequest, "Name the "+what+" (inspect lists an element's actions).", "no %s given", what)
	}
	return nil
}

// createValue is a value to set as a CF object (+1).
func (b *Backend) createValue(value any) (uintptr, error) {
	switch v := value.(type) {
	case string:
		return createString(v), nil
	case float64:
		return createNumber(v), nil
	case bool:
		return cfRetain(booleanRef(v)), nil
	case model.NodeRef:
		return b.createElementArray([]model.NodeRef{v})
	case []model.NodeRef:
		return b.createElementArray(v)
	}
	return 0, model.Errorf(model.CodeBadRequest, "Pass text, a number, a boolean or element ids.",
		"cannot set a value of type %T", value)
}

func (b *Backend) createElementArray(refs []model.NodeRef) (uintptr, error) {
	items := make([]uintptr, 0, len(refs))
	defer func() {
		for _, ax := range items {
			release(ax)
		}
	}()
	for _, r := range refs {
		ax, _, err := b.refs.acquire(r)
		if err != nil {
			return 0, err
		}
		items = append(items, ax)
	}
	return createArray(items), nil
}
