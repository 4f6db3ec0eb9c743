package live

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// Window is a window's tree kept up to date by notifications: read whole once, then only
// what events name is read again (the poller's cycle), and whole again on demand for what no
// notification announced. Waits evaluate their conditions against it and build their reply's
// snapshot from it, so that a wait resolves without walking the window again.
type Window struct {
	o     *observer.Observer
	app   model.App
	marks *marks

	mu   sync.Mutex // guards tree and cut
	tree *polledTree
	cut  []model.Truncation // what cut the last whole read short: the copy lacks what lies past it
	// readAt and readTook are when the last whole read ended and how long it took: ResyncDue.
	readAt   time.Time
	readTook time.Duration
	// resyncs counts the whole re-reads in progress; meanwhile holds what refreshes re-read
	// during them, which the re-read may have read before it changed: it is marked again when
	// the re-read's tree takes over, so that the copy never goes back in time.
	resyncs   int
	meanwhile map[model.NodeRef]markKind
}

// Changes is what a refresh found: the elements added, removed and changed.
type Changes struct {
	Added, Removed, Changed []model.NodeRef
	Reads                   int
	// Fresh are the elements a refresh read, as it read them: read after the events that named
	// them, so as new as a second read would be. A whole re-read gives none: it may have read an
	// element long before it ended.
	Fresh map[model.NodeRef]*model.Node
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool { return len(c.Added)+len(c.Removed)+len(c.Changed) == 0 }

// NewWindow returns the live copy of win of app read through o, empty until Load. Notes taken before Load
// are kept: a change made while the window is read is read again by the next Refresh.
func NewWindow(o *observer.Observer, app model.App, win model.Window) *Window {
	return &Window{o: o, app: app, marks: newMarks(maxMarks), tree: newTree(win, model.WholeBudget(), true, 0)}
}

// Load reads the window whole, with the whole budget, in calls of a few elements (paced): it may
// run while the app is acted on and its events read, and those wait for one call at most.
func (lw *Window) Load(ctx context.Context) error {
	win := lw.Window()
	start := time.Now()
	walk := observer.Walk(ctx, paced{lw.o.Backend()}, win.Ref, observer.WalkOptions{Budget: model.WholeBudget()})
	if len(walk.Nodes) == 0 {
		return model.Errorf(model.CodeAppNotResponding, "Check that the app is alive (axbus apps) and retry.",
			"could not read window %q of %s", win.Title, lw.app.Name).With("pid", lw.app.PID)
	}
	lw.mu.Lock()
	lw.tree = liveTree(win, &walk, model.WholeBudget())
	lw.cut = walk.Truncation
	lw.readAt, lw.readTook = time.Now(), time.Since(start)
	lw.mu.Unlock()
	return nil
}

// The re-reads of a whole window for what no notification announced take a fifth of the time
// at most where they are expensive: a window of pacedSize elements or more (what a polled copy
// holds at most) whose last whole read took pacedFrom or more is read whole again only
// resyncSpacing times that long after. An app's window (a thousand elements or two) is re-read
// on schedule however slow the machine; a 16,000-element web page read in 5 s, every 25 s, and
// the app's waits (or diffs) are not held up behind back-to-back re-reads.
const (
	resyncSpacing = 5
	pacedFrom     = time.Second
	pacedSize     = 4000
)

// resyncDue reports whether a whole read of a window of elements elements that ended at and
// took took allows the next one now.
func resyncDue(at time.Time, took time.Duration, elements int) bool {
	return took < pacedFrom || elements < pacedSize || time.Since(at) >= resyncSpacing*took
}

// ResyncDue reports whether a whole re-read may start now (see resyncSpacing).
func (lw *Window) ResyncDue() bool {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return resyncDue(lw.readAt, lw.readTook, len(lw.tree.elems))
}

// Limits says what cut the copy short when it was last read whole (nothing when it holds the
// whole window), and how many elements it holds.
func (lw *Window) Limits() (cut []model.Truncation, elements int) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return slices.Clone(lw.cut), len(lw.tree.elems)
}

// OpenWindow returns the live copy of win of app read through o, read whole.
func OpenWindow(ctx context.Context, o *observer.Observer, app model.App, win model.Window) (*Window, error) {
	lw := NewWindow(o, app, win)
	return lw, lw.Load(ctx)
}

// maxMarks bounds what events may mark between two refreshes; past it a refresh reads whole.
const maxMarks = 16000

// Loaded reports whether the window was read.
func (lw *Window) Loaded() bool {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return len(lw.tree.elems) > 0
}

// Window is the window the tree is of.
func (lw *Window) Window() model.Window {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.tree.window
}

// App is the app the window belongs to.
func (lw *Window) App() model.App { return lw.app }

// Note records an event of the app: the next Refresh reads what it names. It never blocks.
func (lw *Window) Note(e model.Event) { lw.marks.note(e) }

// Pending reports whether events were noted since the last refresh.
func (lw *Window) Pending() bool { return lw.marks.pending() > 0 }

// Refresh re-reads what events named since the last refresh and returns what changed. A copy
// not loaded yet keeps the marks for the refresh after its Load: there is nothing to apply
// them to, and the Load may have read an element before its change.
func (lw *Window) Refresh(ctx context.Context) Changes {
	if !lw.Loaded() {
		return Changes{}
	}
	m := lw.marks.take()
	if m.overflow {
		return lw.Resync(ctx)
	}
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.resyncs > 0 {
		for ref, kind := range m.refs {
			lw.meanwhile[ref] |= kind
		}
	}
	d, retry := applyMarks(ctx, lw.o.Backend(), lw.tree, m)
	lw.marks.again(retry)
	c := changesOf(d)
	for _, ref := range d.read {
		if e := lw.tree.elems[ref]; e != nil && e.node != nil {
			if c.Fresh == nil {
				c.Fresh = make(map[model.NodeRef]*model.Node, len(d.read))
			}
			c.Fresh[ref] = e.node // never changed in place: a later read replaces it
		}
	}
	return c
}

// Resync reads the window whole again and returns what changed, notified or not. A read cut
// short by its deadline changes nothing: every element it did not reach would look removed.
// Refreshes may run while it reads (the copy is locked only to take the read over): what they
// re-read meanwhile is marked again for the next refresh.
func (lw *Window) Resync(ctx context.Context) Changes {
	lw.mu.Lock()
	win := lw.tree.window
	if lw.resyncs++; lw.meanwhile == nil {
		lw.meanwhile = map[model.NodeRef]markKind{}
	}
	lw.mu.Unlock()
	defer func() {
		lw.mu.Lock()
		if lw.resyncs--; lw.resyncs == 0 {
			lw.marks.mark(lw.meanwhile)
			lw.meanwhile = nil
		}
		lw.mu.Unlock()
	}()
	start := time.Now()
	walk := observer.Walk(ctx, gentle{lw.o.Backend()}, win.Ref, observer.WalkOptions{Budget: model.WholeBudget()})
	lw.mu.Lock()
	lw.readAt, lw.readTook = time.Now(), time.Since(start)
	lw.mu.Unlock()
	if len(walk.Nodes) == 0 || slices.Contains(walk.Truncation, model.TruncatedDeadline) {
		return Changes{Reads: walk.Reads}
	}
	next := liveTree(win, &walk, model.WholeBudget())
	d := &delta{reads: walk.Reads}
	lw.mu.Lock()
	diffTrees(lw.tree, next, d)
	lw.tree, lw.cut = next, walk.Truncation
	lw.mu.Unlock()
	return changesOf(d)
}

func changesOf(d *delta) Changes {
	c := Changes{Reads: d.reads}
	for _, e := range d.added {
		c.Added = append(c.Added, e.Ref)
	}
	for _, e := range d.removed {
		c.Removed = append(c.Removed, e.Ref)
	}
	for _, e := range d.changed {
		c.Changed = append(c.Changed, e.Ref)
	}
	return c
}

// Node returns the element ref as last read, when the window holds it.
func (lw *Window) Node(ref model.NodeRef) (model.Node, bool) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if e := lw.tree.elems[ref]; e != nil {
		return *e.node, true
	}
	return model.Node{}, false
}

// Each calls fn for every element, in pre-order, until fn returns false.
func (lw *Window) Each(fn func(*model.Node) bool) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	stop := false
	lw.tree.each(lw.tree.root, func(_ model.NodeRef, e *polledElem) {
		if !stop && !fn(e.node) {
			stop = true
		}
	})
}

// EachUnder calls fn for ref and every element under it, in pre-order, until fn returns false.
func (lw *Window) EachUnder(ref model.NodeRef, fn func(*model.Node) bool) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	stop := false
	lw.tree.each(ref, func(_ model.NodeRef, e *polledElem) {
		if !stop && !fn(e.node) {
			stop = true
		}
	})
}

// Focused returns the focused element, when the window holds it.
func (lw *Window) Focused() (model.Node, bool) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if e := lw.tree.elems[lw.tree.focused]; e != nil {
		return *e.node, true
	}
	return model.Node{}, false
}

// Snapshot stores, from the tree and without reading the window again, a snapshot that holds
// match, and returns its listing and match as listed (nil for no match): the unscoped listing
// (visible clip, unscoped budget) when it lists match; else the subtree of match's listing root
// (its outermost ancestor whose subtree holds at most ListingRootLimit elements), walked with the
// wide budget, which the listing's Scope names. Depths stay those of the whole window.
func (lw *Window) Snapshot(ctx context.Context, match model.NodeRef) (*model.Inspection, *model.Element, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	t := lw.tree
	reader := modelReader{t}
	budget := model.UnscopedBudget()
	root, depth := t.root, 0
	walk := observer.Walk(ctx, reader, root, observer.WalkOptions{Budget: budget, VisibleOnly: true, Keep: t.pathTo(t.focused)})
	if match != "" && !slices.ContainsFunc(walk.Nodes, func(w observer.Walked) bool { return w.Ref == match }) {
		if t.elems[match] == nil {
			return nil, nil, model.Errorf(model.CodeElementNotFound, "The element went away before the reply; wait again.",
				"the matched element is no longer in window %q", t.window.Title)
		}
		budget = model.WideBudget()
		root = t.listingRoot(match)
		depth = t.elems[root].depth
		walk = observer.Walk(ctx, reader, root, observer.WalkOptions{Budget: budget})
		for i := range walk.Nodes {
			walk.Nodes[i].Depth += depth
		}
	}
	snap := lw.o.StoreWalk(ctx, lw.app, t.window, budget, walk)
	out := snap.Listing(snap.Subtree(0))
	if root != t.root {
		out.Scope = &model.ScopeInfo{Element: model.ElementID(0)}
	}
	i := slices.IndexFunc(snap.Walk.Nodes, func(w observer.Walked) bool { return w.Ref == match })
	if i < 0 {
		return out, nil, nil
	}
	el := snap.Walk.Nodes[i].Listed()
	return out, &el, nil
}

// listingRoot is the outermost ancestor of ref whose subtree holds at most ListingRootLimit
// elements (ref itself when its own subtree is bigger).
func (t *polledTree) listingRoot(ref model.NodeRef) model.NodeRef {
	root := ref
	for e := t.elems[ref]; e != nil && root != t.root; e = t.elems[root] {
		if t.size(e.parent, observer.ListingRootLimit+1) > observer.ListingRootLimit {
			break
		}
		root = e.parent
	}
	return root
}

// size counts the elements of ref's subtree, stopping at limit.
func (t *polledTree) size(ref model.NodeRef, limit int) int {
	e := t.elems[ref]
	if e == nil {
		return 0
	}
	n := 1
	for _, c := range e.children {
		if n >= limit {
			break
		}
		if ce := t.elems[c]; ce != nil && ce.parent == ref {
			n += t.size(c, limit-n)
		}
	}
	return min(n, limit)
}

// pathTo is the handles from the root down to ref, or nil when the tree does not hold it.
func (t *polledTree) pathTo(ref model.NodeRef) []model.NodeRef {
	var path []model.NodeRef
	for e := t.elems[ref]; e != nil; e = t.elems[e.parent] {
		path = append(path, ref)
		if ref == t.root {
			slices.Reverse(path)
			return path
		}
		ref = e.parent
	}
	return nil
}

// paced reads as gentle does, in calls of readsPerCall elements, and passes on what the
// backend knows of children: a whole read of a 2,000-element LibreOffice window takes as long in
// calls of 32 as in batches of 512, and an event's read waits for 32 elements, not 512.
type paced struct{ r observer.Reader }

func (p paced) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	return gentle(p).Read(ctx, refs)
}

func (p paced) KnownChildren(ref model.NodeRef) []model.NodeRef {
	if k, ok := p.r.(observer.ChildKnower); ok {
		return k.KnownChildren(ref)
	}
	return nil
}

// modelReader reads a tree's copy instead of the app: it lets Walk compute a listing from what
// is known, with no call to the app.
type modelReader struct{ t *polledTree }

func (m modelReader) Read(_ context.Context, refs []model.NodeRef) []model.Node {
	out := make([]model.Node, len(refs))
	for i, r := range refs {
		e := m.t.elems[r]
		if e == nil {
			out[i] = model.Node{Ref: r, Err: model.Errorf(model.CodeElementNotFound, "Inspect again.", "element not in the window's copy")}
			continue
		}
		out[i] = *e.node
		out[i].Children = e.children
	}
	return out
}

// ReadBounds lets the visible-clip walk scan a long list of the copy as it scans the app's.
func (m modelReader) ReadBounds(_ context.Context, refs []model.NodeRef) []model.Bounds {
	out := make([]model.Bounds, len(refs))
	for i, r := range refs {
		if e := m.t.elems[r]; e != nil {
			out[i] = model.Bounds{Rect: e.node.Bounds, Offscreen: e.node.Offscreen}
		} else {
			out[i].Err = model.Errorf(model.CodeElementNotFound, "Inspect again.", "element not in the window's copy")
		}
	}
	return out
}
