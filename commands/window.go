package commands

import (
	"context"
	"errors"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/cenkalti/backoff/v4"

	"github.com/axbus/axbus/api"
	"github.com/axbus/axbus/observer"
)

// windowProof bounds the re-reads that prove a window change.
const windowProof = 3 * time.Second

// errNotYet is a re-read that does not show the change yet.
var errNotYet = errors.New("not yet")

// Window moves, resizes or closes an app's window (as inspect picks it) for the identity that
// asks, unless another holds the app's lease or the window's (LEASE_HELD), and proves it by
// reading the app's windows again until they show it: the window's bounds at the place or
// size asked, or the window gone. ACTION_FAILED when they never do (a window manager may
// refuse).
func (e *Engine) Window(ctx context.Context, r api.WindowRequest) (*api.WindowReply, error) {
	ch := model.WindowChange{Op: model.WindowOp(r.Op), X: value(r.X), Y: value(r.Y), W: value(r.W), H: value(r.H)}
	if err := ch.Check(); err != nil {
		return nil, err
	}
	wc, ok := e.o.Backend().(observer.WindowChanger)
	if !ok {
		return nil, model.Errorf(model.CodeNotSupported, "Run the daemon on a backend that manages windows (AT-SPI on X11).",
			"this backend cannot move, resize or close windows")
	}
	app, before, err := e.o.Window(ctx, r.Query(), r.Window)
	if err != nil {
		return nil, err
	}
	if e.leases != nil {
		if err := e.leases.Check(api.IdentityOf(ctx), app, before.ID); err != nil {
			return nil, err
		}
	}
	if err := wc.ChangeWindow(ctx, app.PID, before, ch); err != nil {
		return nil, err
	}
	var after *model.Window
	reread := func() error {
		wins, err := e.o.Backend().Windows(ctx, app.PID)
		if c := model.CodeOf(err); err != nil && ch.Op == model.WindowClose && (c == model.CodeAppGone || c == model.CodeAppNotFound) {
			after = nil // the app quit with its last window
			return nil
		} else if err != nil {
			return err
		}
		after = nil
		for i := range wins {
			if wins[i].ID == before.ID {
				after = &wins[i]
			}
		}
		if ch.Shows(after) {
			return nil
		}
		return errNotYet
	}
	b := backoff.WithContext(backoff.NewExponentialBackOff(backoff.WithInitialInterval(10*time.Millisecond),
		backoff.WithMaxInterval(200*time.Millisecond), backoff.WithMaxElapsedTime(windowProof)), ctx)
	if err := backoff.Retry(reread, b); errors.Is(err, errNotYet) {
		return nil, model.Errorf(model.CodeActionFailed, "A window manager may refuse it; check the window (axbus windows) and retry.",
			"window %q does not show the %s after %v", before.Title, ch.Op, windowProof)
	} else if err != nil {
		return nil, err
	}
	return &api.WindowReply{App: app.Ref(), Before: before, After: after, Closed: after == nil}, nil
}

func value(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
