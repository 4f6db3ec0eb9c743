package ax

import (
	"context"
	"time"

	"github.com/axbus/axbus/model"
)

// Bringing an app to the front, which physical input needs: keys typed into whatever app is in
// front could do harm, so input is refused when its app does not come. Nothing else needs it: an
// AX call reaches its element whichever app is in front, so only Input, and a window raise
// (which is asked to activate), bring apps forward.
//
// -[NSRunningApplication activateWithOptions:] is tried first. From macOS 14 activation is
// cooperative: NSApplicationActivateIgnoringOtherApps has no effect, and a request from an app
// that is not itself in front (this daemon) may be ignored although it reports success. When the
// app is not in front soon after, AXFrontmost is set on its application element, which the
// accessibility permission allows.

// frontRaiser brings apps to the front through the platform's calls.
type frontRaiser struct {
	frontPID     func() int          // the frontmost app's pid, 0 when none is known
	activate     func(pid int) bool  // activateWithOptions:; false when refused
	setFrontmost func(pid int) error // AXFrontmost = true on the app's element
	activateWait time.Duration
	frontWait    time.Duration
	poll         time.Duration
}

// raise brings app pid to the front: nothing when it is there, else activation, else AXFrontmost.
// An app that exited is the error of setFrontmost; one that stays behind is ACTION_FAILED.
func (r frontRaiser) raise(ctx context.Context, pid int) error {
	if r.frontPID() == pid {
		return nil
	}
	if r.activate(pid) {
		if front, err := r.waitFront(ctx, pid, r.activateWait); front || err != nil {
			return err
		}
	}
	setErr := r.setFrontmost(pid)
	switch model.CodeOf(setErr) {
	case model.CodeAppNotFound, model.CodeAppGone:
		return setErr
	}
	// An AX call may report failure although it took effect: whether the app came decides.
	front, err := r.waitFront(ctx, pid, r.frontWait)
	switch {
	case err != nil:
		return err
	case front:
		return nil
	}
	e := errNotFront(pid)
	if setErr != nil {
		e = e.With("frontmost_error", model.AsError(setErr).Message).Wrap(setErr)
	}
	return e
}

// waitFront waits up to d for app pid to be in front.
func (r frontRaiser) waitFront(ctx context.Context, pid int, d time.Duration) (bool, error) {
	deadline := time.Now().Add(d)
	for {
		if r.frontPID() == pid {
			return true, nil
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		if err := sleep(ctx, r.poll); err != nil {
			return false, err
		}
	}
}

func errNotFront(pid int) *model.Error {
	return model.Errorf(model.CodeActionFailed, "Bring the app to the front (close what covers it) and retry.",
		"app pid %d did not come to the front, so no input was sent", pid).With("pid", pid)
}
