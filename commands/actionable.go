package commands

import (
	"context"
	"fmt"
	"slices"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/waiters"
)

// actionable refuses, before any step, an element named by id that cannot take action as it
// is now, read again once the client's earlier actions are delivered: one that no longer shows
// (ELEMENT_HIDDEN) or, for any action but scroll_to, one that is disabled (ELEMENT_DISABLED).
// Scrolling a disabled element into view is how one reads it. A locator's element needs no such
// check: its wait waited until it was actionable.
func (e *Engine) actionable(ctx context.Context, action string, t *target) error {
	ctx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	if err := e.showing(ctx, t); err != nil {
		return err
	}
	if action == "scroll_to" || !t.node.States.Disabled() {
		return nil
	}
	id := t.info.Element
	return model.Errorf(model.CodeElementDisabled,
		fmt.Sprintf("Wait until it is enabled (a wait for state:%s=enabled with snapshot %s and pid %d), then act again; or act by a locator, which waits until the element is actionable.",
			id, t.snap.ID, t.app.PID),
		"%s %q (%s of snapshot %s) is disabled: it takes no %s", t.node.Role, t.node.Name, id, t.snap.ID, action).
		With("check", waiters.CheckDisabled).With("states", t.node.States)
}

// showing refuses an element that still exists but no longer shows: its window is no longer
// among the app's (a dialog hidden, not destroyed), or it or an ancestor is hidden by read's rule
// (observer.HiddenOnPath: a stack's or notebook's page not shown). An element scrolled out of
// view shows (scroll_to brings it in); one that reports no state at all is never hidden. The
// element and its ancestors are read again in one batch; where one of them cannot be read, its
// place is unknown and nothing is refused: the chain decides. The app's windows are listed only
// when its window does not say it shows (macOS never says): a window that does is listed.
func (e *Engine) showing(ctx context.Context, t *target) error {
	b := e.o.Backend()
	path := b.Read(ctx, append(slices.Clip(t.path), t.ref))
	if slices.ContainsFunc(path, func(n model.Node) bool { return n.Err != nil }) {
		return nil
	}
	// An option of a closed combo box is reached through the combo box (select sets it without
	// opening the popup): only the path down to the combo box must show.
	if i := slices.IndexFunc(path[:len(path)-1], func(n model.Node) bool { return n.Role == model.RoleComboBox }); i >= 0 {
		path = path[:i+1]
	}
	what := fmt.Sprintf("%s %q (%s of snapshot %s)", t.node.Role, t.node.Name, t.info.Element, t.snap.ID)
	const suggestion = "Inspect again and act on what shows now; if it should show, show it first (open its dialog, switch to its page)."
	if path[0].States&(model.StateVisible|model.StateShowing|model.StateMinimized) == 0 {
		wins, err := b.Windows(ctx, t.app.PID)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(wins, func(w model.Window) bool { return w.ID == t.snap.Window.ID }) {
			return model.Errorf(model.CodeElementHidden, suggestion, "%s no longer shows: its window %q is hidden", what, t.snap.Window.Title).
				With("check", checkHidden).With("window", t.snap.Window.ID)
		}
	}
	i := observer.HiddenOnPath(ctx, b, path)
	switch {
	case i < 0:
		if last := path[len(path)-1]; last.Ref == t.ref {
			t.node = last
		}
		return nil
	case path[i].Ref == t.ref:
		return model.Errorf(model.CodeElementHidden, suggestion, "%s no longer shows: it is hidden", what).
			With("check", checkHidden).With("states", path[i].States)
	}
	holder := string(path[i].Role)
	if path[i].Name != "" {
		holder += fmt.Sprintf(" %q", path[i].Name)
	}
	return model.Errorf(model.CodeElementHidden, suggestion, "%s no longer shows: the %s that holds it is hidden", what, holder).
		With("check", checkHidden).With("hidden", map[string]any{"role": path[i].Role, "name": path[i].Name, "states": path[i].States})
}

// checkHidden names, in an ELEMENT_HIDDEN's details, the check that failed (as a locator's
// TIMEOUT names its own: waiters.CheckDisabled, ...).
const checkHidden = "hidden"
