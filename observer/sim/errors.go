package sim

import (
	"context"
	"strings"

	"github.com/axbus/axbus/model"
)

// The errors of the simulated backend, each shaped like the AXError a real call would return.

func errAppNotFound(pid int) *model.Error {
	return model.Errorf(model.CodeAppNotFound, "Run axbus apps to see the running apps.",
		"no app with pid %d", pid).With("pid", pid)
}

func errAppGone(a *app) *model.Error {
	return model.Errorf(model.CodeAppGone, "The app exited; find it again with axbus apps and inspect anew.",
		"%s (pid %d) has exited", a.spec.Name, a.pid).With("pid", a.pid)
}

func errElementNotFound(a *app, id string) *model.Error {
	return model.Errorf(model.CodeElementNotFound, "The element is gone (kAXErrorInvalidUIElement); inspect again.",
		"%s has no element %q any more", a.spec.Name, id).With("pid", a.pid).With("ax_error", -25202)
}

func errTransient(a *app, id string) *model.Error {
	e := model.Errorf(model.CodeTransient, "The app was busy (kAXErrorCannotComplete); retry shortly.",
		"%s could not complete the call", a.spec.Name).With("pid", a.pid).With("ax_error", -25204)
	if id != "" {
		e.With("element", id)
	}
	return e
}

func errLying(a *app, id, action string, code model.Code) *model.Error {
	if code == model.CodeActionFailed {
		return model.Errorf(code, "The app reported a failure; check the element's state before retrying.",
			"%s reported that %s on %q failed", a.spec.Name, action, id).With("pid", a.pid).With("ax_error", -25200)
	}
	return errTransient(a, id)
}

func errNotResponding(a *app) *model.Error {
	return model.Errorf(model.CodeAppNotResponding, "The app is not answering; wait for it or check that it is alive.",
		"%s (pid %d) did not answer in time", a.spec.Name, a.pid).With("pid", a.pid)
}

func errActionUnsupported(a *app, n *node, action string) *model.Error {
	return model.Errorf(model.CodeNotSupported, "Use one of the element's actions, or another way to reach the same effect.",
		"%s %q has no action %s (kAXErrorActionUnsupported); it offers [%s]", n.role, n.id, action, strings.Join(n.actions, " ")).
		With("pid", a.pid).With("ax_error", -25206).With("actions", n.actions)
}

func errNotSettable(a *app, n *node, attr string) *model.Error {
	return model.Errorf(model.CodeNotSupported, "Set one of the element's settable attributes, or perform an action instead.",
		"%s %q cannot set %s; settable: [%s]", n.role, n.id, attr, strings.Join(n.settable, " ")).
		With("pid", a.pid).With("ax_error", -25205).With("settable", n.settable)
}

func errBadValue(n *node, attr string, value any) *model.Error {
	return model.Errorf(model.CodeBadRequest, "Give AXValue as text (or a number for a slider) and AXFocused, AXSelected or AXExpanded as true or false.",
		"%v is not a valid %s for %s %q (kAXErrorIllegalArgument)", value, attr, n.role, n.id).With("ax_error", -25201)
}

func errDisabled(a *app, n *node) *model.Error {
	return model.Errorf(model.CodeActionFailed, "The element is disabled; wait for it to become enabled.",
		"%s %q is disabled", n.role, n.id).With("pid", a.pid)
}

func errClosed() *model.Error {
	return model.Errorf(model.CodeUnavailable, "The simulated desktop was closed; start a new one.", "desktop closed")
}

// errContext is the error of a call whose context ended while it waited.
func errContext(err error) *model.Error {
	return model.Errorf(model.CodeTimeout, "", "the call ended before the app answered: %v", err).Wrap(err)
}

// ctxErr is errContext of ctx's error, or nil while ctx is live.
func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return errContext(err)
	}
	return nil
}
