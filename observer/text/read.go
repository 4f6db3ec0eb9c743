package text

import (
	"context"
	"fmt"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// Request asks for the text of a window, or of one element's subtree.
type Request struct {
	App model.AppQuery
	// Window is a window id or title; empty means the focused window, else the first (as Inspect).
	Window string
	// Scope, when set, reads only the subtree of an element of an earlier snapshot, found again in
	// its window as a scoped inspection finds it; App and Window are then taken from it.
	Scope *observer.Scope
	// Limit is the most bytes of text to return: 0 means MaxReadBytes, more is capped to it.
	Limit int
	// All reads hidden elements too (closed menus, hidden pages: see observer.HiddenIn), which a read
	// leaves out by default.
	All bool
}

// pixelsAdvice points at pixels when the accessibility tree has no text to give.
const pixelsAdvice = "If the window draws its own content (a canvas, a game, a remote desktop), its text is not in " +
	"the accessibility tree: read it from pixels (a screenshot with OCR) instead."

// Read returns the text of a window, or of a scope's subtree, in reading order. It walks
// with the whole budget and no visible clip, so content scrolled out of view is read when the app
// exposes it, and it reads labels' text too (TextReader) where a backend's plain read leaves it
// out. What is hidden (see observer.HiddenIn: closed menus, a toolbar's overflow, hidden widgets) is
// left out and counted, unless req.All asks for everything. It stores no snapshot, sends no
// input, focuses and activates nothing: a read changes nothing on the desktop. It answers within
// the whole budget's deadline, with what it read by then.
//
// An unknown app is APP_NOT_FOUND; an app that does not answer is APP_NOT_RESPONDING; a window
// without text gives an empty text with a Hint, not an error; a walk that read nothing is an
// error whose suggestion points at pixels.
func Read(ctx context.Context, o *observer.Observer, req Request) (*model.ReadResult, error) {
	if req.Limit < 0 {
		return nil, model.Errorf(model.CodeBadRequest, fmt.Sprintf("Give limit in bytes, at most %d, or leave it out.", MaxReadBytes),
			"limit %d is negative", req.Limit)
	}
	limit := min(req.Limit, MaxReadBytes)
	if limit == 0 {
		limit = MaxReadBytes
	}
	budget := model.WholeBudget()
	readCtx, cancel := context.WithTimeout(ctx, budget.Deadline)
	defer cancel()

	app, win, err := readTarget(readCtx, o, req)
	if err != nil {
		return nil, notAnswering(ctx, err)
	}
	r := &firstErrorReader{Reader: textReading(o.Backend())}
	walk := observer.Walk(readCtx, r, win.Ref, observer.WalkOptions{Budget: budget})
	if len(walk.Nodes) == 0 {
		return nil, readFailed(ctx, app, win, req.Scope != nil, r.err)
	}
	root := 0
	if req.Scope != nil {
		was, _ := o.Store().Get(req.Scope.Snapshot) // readTarget found it
		old, _ := was.Element(req.Scope.Element)
		if root, err = observer.Refind(was, old, &walk, *req.Scope); err != nil {
			return nil, err
		}
	}

	t := AssembleWith(walk, root, Options{Limit: limit, All: req.All})
	res := &model.ReadResult{
		App: app.Ref(), Window: win.RefOf(), Text: t.Text, Lines: t.Lines, Bytes: len(t.Text),
		Truncation: walk.Truncation, Omitted: t.Omitted, Elements: len(walk.Nodes), HiddenOmitted: t.Hidden,
	}
	if t.Truncated {
		res.Truncation = append(res.Truncation, model.TextLimit)
	}
	res.Truncated = len(res.Truncation) > 0
	switch {
	case t.Text == "" && t.Hidden > 0:
		res.Hint = "All the text here is hidden (closed menus, hidden pages): read with all to include it."
	case t.Text == "":
		res.Hint = "The accessibility tree holds no text here. " + pixelsAdvice
	}
	return res, nil
}

// readTarget is the app and window a read walks: those of its scope's snapshot, or those it names.
func readTarget(ctx context.Context, o *observer.Observer, req Request) (model.App, model.Window, error) {
	if req.Scope != nil {
		was, err := o.Store().GetFor(ctx, req.Scope.Snapshot)
		if err != nil {
			return model.App{}, model.Window{}, err
		}
		if _, err := was.Element(req.Scope.Element); err != nil {
			return model.App{}, model.Window{}, err
		}
		return o.SameWindow(ctx, was)
	}
	return o.Window(ctx, req.App, req.Window)
}

// textReading is the reader of a read: ReadWithText where the backend has it, so that labels'
// text is read too.
func textReading(b observer.Backend) observer.Reader {
	if tr, ok := b.(observer.TextReader); ok {
		return withLabelText{tr}
	}
	return b
}

type withLabelText struct{ observer.TextReader }

func (t withLabelText) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	return t.ReadWithText(ctx, refs)
}

// firstErrorReader keeps the first element error of a walk: when nothing could be read, it is
// the root's, and says why.
type firstErrorReader struct {
	observer.Reader
	err error
}

func (r *firstErrorReader) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	nodes := r.Reader.Read(ctx, refs)
	for i := range nodes {
		if r.err == nil && nodes[i].Err != nil {
			r.err = nodes[i].Err
		}
	}
	return nodes
}

// notAnswering turns running out of the read's own time into APP_NOT_RESPONDING: the app did not
// answer within the budget. When the caller's ctx ended first, the error stays TIMEOUT.
func notAnswering(caller context.Context, err error) *model.Error {
	e := model.AsError(err)
	if e.Code == model.CodeTimeout && caller.Err() == nil {
		return model.Errorf(model.CodeAppNotResponding, "The app is not answering; check that it is alive (axbus apps) and retry.",
			"the app did not answer within %s", model.WholeBudget().Deadline).Wrap(err)
	}
	return e
}

// readFailed is the error of a walk that read nothing, from the error of its root (nil when the
// time ran out before the first answer).
func readFailed(caller context.Context, app model.App, win model.Window, scoped bool, cause error) *model.Error {
	what := fmt.Sprintf("window %q of %s", win.Title, app.Name)
	if scoped {
		what = "the element to read in " + what
	}
	var e *model.Error
	switch code := model.CodeOf(cause); {
	case cause == nil || code == model.CodeTimeout || code == model.CodeAppNotResponding:
		if caller.Err() != nil {
			e = model.Errorf(model.CodeTimeout, "", "the request ended before %s could be read", what)
		} else {
			e = model.Errorf(model.CodeAppNotResponding, "Check that the app is alive (axbus apps) and retry. "+pixelsAdvice,
				"%s did not answer: could not read %s", app.Name, what)
		}
	case code == model.CodeAppGone:
		e = model.Errorf(model.CodeAppGone, "Find the app again with axbus apps, then read anew.",
			"%s exited while %s was read", app.Name, what)
	case code == model.CodeElementNotFound && scoped:
		e = model.Errorf(model.CodeElementNotFound, "The element is gone: inspect again and read a scope of the new snapshot.",
			"could not read %s: it is gone", what)
	case code == model.CodeElementNotFound:
		e = model.Errorf(model.CodeWindowNotFound, "The window closed: list the windows again (axbus windows).",
			"could not read %s: it is gone", what)
	default:
		e = model.Errorf(code, "Retry shortly. "+pixelsAdvice, "could not read %s: %s", what, model.AsError(cause).Message)
	}
	if cause != nil {
		e.Wrap(cause)
	}
	return e.With("pid", app.PID).With("window", win.ID)
}
