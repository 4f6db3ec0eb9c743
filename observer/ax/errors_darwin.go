package ax

import (
	"context"
	"fmt"

	"github.com/axbus/axbus/model"

	"golang.org/x/sys/unix"
)

// callErr turns the AXError of a call on ref (of app pid) into an *model.Error; nil for
// Success. AX answers a vanished app as it answers a busy one or a destroyed element
// (CannotComplete, InvalidUIElement): whether the process still exists tells them apart.
func (b *Backend) callErr(code AXError, pid int, ref model.NodeRef, format string, args ...any) error {
	if code == AXSuccess {
		return nil
	}
	what := fmt.Sprintf(format, args...)
	if (code == AXInvalidUIElement || code == AXCannotComplete) && !processAlive(pid) {
		b.appExited(pid)
		return errAppGone(pid, what)
	}
	if code == AXInvalidUIElement && ref != "" {
		b.refs.forget(ref)
	}
	return code.Err("%s", what).With("pid", pid)
}

// appExited forgets everything about app pid.
func (b *Backend) appExited(pid int) {
	b.refs.forgetApp(pid)
	b.apps.drop(pid)
}

// processAlive reports whether process pid exists (it may belong to another user).
func processAlive(pid int) bool { return pid > 0 && unix.Kill(pid, 0) != unix.ESRCH }

func errAppGone(pid int, what string) *model.Error {
	return model.Errorf(model.CodeAppGone, "The app has exited; find it again with axbus apps and inspect anew.",
		"%s: the app (pid %d) has exited", what, pid).With("pid", pid)
}

func errNoApp(pid int) *model.Error {
	return model.Errorf(model.CodeAppNotFound, "",
		"no running app has pid %d", pid).With("pid", pid)
}

// errEnded is the error of work that ctx ended before it was done.
func errEnded(ctx context.Context, what string) *model.Error {
	return model.Errorf(model.CodeTimeout, "Retry with a longer timeout, or narrow the request.",
		"%s ended before it was done: %v", what, ctx.Err()).Wrap(ctx.Err())
}
