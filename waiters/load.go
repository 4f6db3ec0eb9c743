package waiters

import (
	"context"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/observer/live"
)

// A window's live copy is read whole off the watcher's loop: a wait listens as soon as its
// windows' copies take events, not once they are read (a LibreOffice window takes most of a
// second), so that the caller acts at once and the event its action causes is looked at as it
// comes (probe.go). What a copy being read cannot decide waits for the read's end.

// loadDone is the end of a whole read of a live window.
type loadDone struct {
	lw  *live.Window
	err error
}

// load reads lw whole on a goroutine of its own; the loop takes the end (loadDone).
func (aw *appWatch) load(ctx context.Context, lw *live.Window) {
	aw.loading[lw] = true
	aw.bg.Add(1)
	go func() {
		defer aw.bg.Done()
		err := lw.Load(ctx)
		select {
		case aw.loaded <- loadDone{lw: lw, err: err}:
		case <-ctx.Done():
		}
	}()
}

// retryLoad is how long a window whose whole read failed is left out of the waits' views before
// an evaluation reads it again: a window that cannot be read does not keep them from deciding,
// nor the watcher busy reading it again and again.
const retryLoad = DefaultRecheck

// loadDone brings a copy read whole up to date with what events named meanwhile, then looks at
// every wait whole: the copy may hold what they wait for, or what their view lacked. A copy that
// could not be read is dropped: the waits look without it, and an evaluation after retryLoad
// reads it again.
func (aw *appWatch) loadDone(ctx context.Context, d loadDone) {
	delete(aw.loading, d.lw)
	ref := d.lw.Window().Ref
	aw.mu.Lock()
	current := aw.live[ref] == d.lw
	if d.err != nil && current {
		delete(aw.live, ref)
		aw.failed[ref] = time.Now()
	}
	aw.mu.Unlock()
	if !current { // its window closed, or the app ended, while it was read
		return
	}
	var fresh map[model.NodeRef]*model.Node
	if d.err == nil {
		fresh = d.lw.Refresh(ctx).Fresh
	}
	aw.evaluateWaits(ctx, &change{fresh: fresh, winsChanged: true, loaded: true}, nil)
}

// loadTrigger is what a wait met on a copy just read whole says made it hold: it held when the
// wait began, unless events of the app came since, which may have made it hold.
func (aw *appWatch) loadTrigger(w *wait) *Trigger {
	aw.mu.Lock()
	defer aw.mu.Unlock()
	if aw.evSeq == aw.addedAt[w] {
		return &Trigger{Kind: "initial"}
	}
	t := aw.lastEv
	return &t
}

// loadingFor reports whether one of w's windows is still being read whole.
func (aw *appWatch) loadingFor(w *wait) bool {
	if len(aw.loading) == 0 {
		return false
	}
	for lw := range aw.loading {
		if w.req.Window == "" || aw.isWindow(lw.Window(), w.req.Window) {
			return true
		}
	}
	return false
}

// isWindow reports whether win is the window want names (an id or a title).
func (aw *appWatch) isWindow(win model.Window, want string) bool {
	picked, err := observer.PickWindow(aw.app, aw.windows, want)
	return err == nil && picked.Ref == win.Ref
}
