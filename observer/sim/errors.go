package sim

import (
	"context"
	"strings"

	"github.com/axbus/axbus/observer"
)

// The errors of the simulated backend, each shaped like the AXError a real call would return.

func errAppNotFound(pid int) *observer.Error {
	return observer.Errorf(observer.CodeAppNotFound, "Run axbus apps to see the running apps.",
		"no app with pid %d", pid).With("pid", pid)
}

func errAppGone(a *app) *observer.Error {
	return observer.Errorf(observer.CodeAppGone, "The app exited; find it again with axbus apps and inspect anew.",
		"%s (pid %d) has exited", a.spec.Name, a.pid).With("pid", a.pid)
}

func errElementNotFound(a *app, id string) *observer.Error {
	return observer.Errorf(observer.CodeElementNotFound, "The element is gone (kAXErrorInvalidUIElement); inspect again.",
		"%s has no element %q any more", a.spec.Name, id).With("pid", a.pid).With("ax_error", -25202)
}

func errTransient(a *app, id string) *observer.Error {
	e := observer.Errorf(observer.CodeTransient, "The app was busy (kAXErrorCannotComplete); retry shortly.",
		"%s could not complete the call", a.spec.Name).With("pid", a.pid).With("ax_error", -25204)
	if id != "" {
		e.With("element", id)
	}
	return e
}

func errLying(a *app, id, action string, code observer.Code) *observer.Error {
	if code == observer.CodeActionFailed {
		return observer.Errorf(code, "The app reported a failure; check the element's state before retrying.",
			"%s reported that %s on %q failed", a.spec.Name, action, id).With("pid", a.pid).With("ax_error", -25200)
	}
	return errTransient(a, id)
}

func errNotResponding(a *app) *observer.Error {
	return observer.Errorf(observer.CodeAppNotResponding, "The app is not answering; wait for it or check that it is alive.",
		"%s (pid %d) did not answer in time", a.spec.Name, a.pid).With("pid", a.pid)
}

func errActionUnsupported(a *app, n *node, action string) *observer.Error {
	return observer.Errorf(observer.CodeNotSupported, "Use one of the element's actions, or another way to reach the same effect.",
		"%s %q has no action %s (kAXErrorActionUnsupported); it offers [%s]", n.role, n.id, action, strings.Join(n.actions, " ")).
		With("pid", a.pid).With("ax_error", -25206).With("actions", n.actions)
}

func errNotSettable(a *app, n *node, attr string) *observer.Error {
	return observer.Errorf(observer.CodeNotSupported, "Set one of the element's settable attributes, or perform an action instead.",
		"%s %q cannot set %s; settable: [%s]", n.role, n.id, attr, strings.Join(n.settable, " ")).
		With("pid", a.pid).With("ax_error", -25205).With("settable", n.settable)
}

func errBadValue(n *node, attr string, value any) *observer.Error {
	return observer.Errorf(observer.CodeBadRequest, "Give AXValue as text (or a number for a slider) and AXFocused, AXSelected or AXExpanded as true or false.",
		"%v is not a valid %s for %s %q (kAXErrorIllegalArgument)", value, attr, n.role, n.id).With("ax_error", -25201)
}

func errDisabled(a *app, n *node) *observer.Error {
	return observer.Errorf(observer.CodeActionFailed, "The element is disabled; wait for it to become enabled.",
		"%s %q is disabled", n.role, n.id).With("pid", a.pid)
}

func errClosed() *observer.Error {
	return observer.Errorf(observer.CodeUnavailable, "The simulated desktop was closed; start a new one.", "desktop closed")
}

// errContext is the error of a call whose context ended while it waited.
func errContext(err error) *observer.Error {
	return observer.Errorf(observer.CodeTimeout, "", "the call ended before the app answered: %v", err).Wrap(err)
}

// ctxErr is errContext of ctx's error, or nil while ctx is live.
func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return errContext(err)
	}
	return nil
}
