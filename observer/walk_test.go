package observer

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/axbus/axbus/model"
)

// treeReader is a tiny in-memory tree for walk tests: node "r" is the root; children are named
// by appending ".i".
type treeReader struct {
	nodes map[model.NodeRef]model.Node
	reads atomic.Int64
	calls atomic.Int64
	delay time.Duration
}

func (t *treeReader) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	t.calls.Add(1)
	t.reads.Add(int64(len(refs)))
	if t.delay > 0 {
		select {
		case <-time.After(t.delay):
		case <-ctx.Done():
		}
	}
	out := make([]model.Node, len(refs))
	for i, r := range refs {
		if ctx.Err() != nil {
			out[i] = model.Node{Ref: r, Err: ctx.Err()}
			continue
		}
		n, ok := t.nodes[r]
		if !ok {
			out[i] = model.Node{Ref: r, Err: model.Errorf(model.CodeElementNotFound, "-", "gone")}
			continue
		}
		out[i] = n
	}
	return out
}

// boundsTree is a treeReader that also reads bounds alone, counting them.
type boundsTree struct {
	*treeReader
	boundsReads atomic.Int64
}

func (t *boundsTree) ReadBounds(ctx context.Context, refs []model.NodeRef) []model.Bounds {
	t.boundsReads.Add(int64(len(refs)))
	out := make([]model.Bounds, len(refs))
	for i, r := range refs {
		n, ok := t.nodes[r]
		if !ok {
			out[i].Err = model.Errorf(model.CodeElementNotFound, "-", "gone")
			continue
		}
		out[i] = model.Bounds{Rect: n.Bounds, Offscreen: n.Offscreen}
	}
	return out
}

// scrolledList is listTree with the list scrolled so that row first is at the viewport's top.
func scrolledList(n, first int) *treeReader {
	t := listTree(n)
	for i := range n {
		row := model.NodeRef(fmt.Sprintf("row%d", i))
		for _, ref := range []model.NodeRef{row, row + ".text"} {
			node := t.nodes[ref]
			b := *node.Bounds
			b.Y -= float64(first * 20)
			node.Bounds = &b
			t.nodes[ref] = node
		}
	}
	return t
}

// add creates node ref with role and bounds and links it under parent.
func (t *treeReader) add(parent, ref model.NodeRef, role model.Role, b *model.Rect) {
	if t.nodes == nil {
		t.nodes = map[model.NodeRef]model.Node{}
	}
	t.nodes[ref] = model.Node{Ref: ref, Role: role, Name: string(ref), Bounds: b}
	if parent != "" {
		p := t.nodes[parent]
		p.Children = append(p.Children, ref)
		p.ChildCount = len(p.Children)
		t.nodes[parent] = p
	}
}

func rect(x, y, w, h float64) *model.Rect { return &model.Rect{X: x, Y: y, W: w, H: h} }

// listTree: a window with a toolbar button and a scroll area whose list has n rows of 20 px,
// of which the first 10 fit in the 200 px viewport.
func listTree(n int) *treeReader {
	t := &treeReader{}
	t.add("", "win", model.RoleWindow, rect(0, 0, 800, 600))
	t.add("win", "btn", model.RoleButton, rect(10, 10, 80, 20))
	t.add("win", "scroll", model.RoleScrollArea, rect(0, 100, 800, 200))
	t.add("scroll", "list", model.RoleList, rect(0, 100, 800, float64(n*20)))
	for i := range n {
		row := model.NodeRef(fmt.Sprintf("row%d", i))
		t.add("list", row, model.RoleRow, rect(0, float64(100+i*20), 800, 20))
		t.add(row, row+".text", model.RoleText, rect(0, float64(100+i*20), 100, 20))
	}
	return t
}

func TestWalkPreOrderIDsAndParents(t *testing.T) {
	tr := listTree(3)
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.WideBudget()})
	want := []model.NodeRef{"win", "btn", "scroll", "list", "row0", "row0.text", "row1", "row1.text", "row2", "row2.text"}
	if len(res.Nodes) != len(want) {
		t.Fatalf("walked %d nodes, want %d", len(res.Nodes), len(want))
	}
	for i, w := range res.Nodes {
		if w.Ref != want[i] || w.Index != i {
			t.Fatalf("node %d = %s (index %d), want %s", i, w.Ref, w.Index, want[i])
		}
	}
	if p := res.Nodes[5]; p.Parent != 4 || p.Depth != 4 {
		t.Fatalf("row0.text parent %d depth %d, want 4 and 4", p.Parent, p.Depth)
	}
	if len(res.Truncation) != 0 || res.Incomplete {
		t.Fatalf("unexpected cuts %v", res.Truncation)
	}
}

func TestWalkVisibleClipSkipsOffscreenRows(t *testing.T) {
	tr := listTree(400)
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.UnscopedBudget(), VisibleOnly: true})
	rows := 0
	for _, w := range res.Nodes {
		if w.Role == model.RoleRow {
			rows++
		}
	}
	// rows 0..9 lie inside the viewport and row 10 touches its bottom edge: kept.
	if rows != 11 {
		t.Fatalf("listed %d rows, want 11", rows)
	}
	// the children budget (100) stops the walk at row 99: rows 11..99 were read and skipped.
	if res.OffscreenOmitted != 89 {
		t.Fatalf("offscreen_omitted = %d, want 89", res.OffscreenOmitted)
	}
	if !slices.Contains(res.Truncation, model.TruncatedChildren) {
		t.Fatalf("truncation %v lacks truncated_children", res.Truncation)
	}
}

func TestWalkKeepsFocusedOffscreenElement(t *testing.T) {
	tr := listTree(50)
	res := Walk(context.Background(), tr, "win", WalkOptions{
		Budget: model.UnscopedBudget(), VisibleOnly: true, Keep: []model.NodeRef{"win", "scroll", "list", "row40", "row40.text"},
	})
	found := false
	for _, w := range res.Nodes {
		found = found || w.Ref == "row40.text"
	}
	if !found {
		t.Fatal("the focused off-screen element was clipped")
	}
}

func TestWalkNestedClipNarrowsTwice(t *testing.T) {
	tr := &treeReader{}
	tr.add("", "win", model.RoleWindow, rect(0, 0, 800, 600))
	tr.add("win", "scroll", model.RoleScrollArea, rect(0, 0, 800, 300))
	tr.add("scroll", "web", model.RoleWebArea, rect(0, 0, 800, 250)) // the web area's own viewport is smaller
	tr.add("web", "seen", model.RoleLink, rect(0, 100, 100, 20))
	tr.add("web", "underweb", model.RoleLink, rect(0, 270, 100, 20)) // inside scroll, outside web
	tr.add("web", "underall", model.RoleLink, rect(0, 500, 100, 20)) // inside the window only
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.UnscopedBudget(), VisibleOnly: true})
	var refs []model.NodeRef
	for _, w := range res.Nodes {
		refs = append(refs, w.Ref)
	}
	if fmt.Sprint(refs) != "[win scroll web seen]" || res.OffscreenOmitted != 2 {
		t.Fatalf("walked %v with %d omitted; want [win scroll web seen] and 2", refs, res.OffscreenOmitted)
	}
}

func TestWalkCountBudgetIsPreOrder(t *testing.T) {
	tr := listTree(400)
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.Budget{MaxDepth: 64, MaxElements: 25, MaxChildren: 1000}})
	if len(res.Nodes) != 25 || !slices.Contains(res.Truncation, model.TruncatedCount) {
		t.Fatalf("got %d nodes, cuts %v; want 25 and truncated_count", len(res.Nodes), res.Truncation)
	}
	// pre-order: win btn scroll list then rows with their texts: the 25th element is row10.
	if last := res.Nodes[24].Ref; last != "row10" {
		t.Fatalf("25th element is %s, want row10", last)
	}
	// batching reads ahead a little, never the whole list.
	if r := tr.reads.Load(); r > 200 {
		t.Fatalf("read %d nodes for a budget of 25", r)
	}
}

func TestWalkDepthBudget(t *testing.T) {
	tr := listTree(2)
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.Budget{MaxDepth: 2, MaxElements: 100, MaxChildren: 100}})
	for _, w := range res.Nodes {
		if w.Depth > 2 {
			t.Fatalf("%s at depth %d", w.Ref, w.Depth)
		}
	}
	if !slices.Contains(res.Truncation, model.TruncatedDepth) {
		t.Fatalf("truncation %v lacks truncated_depth", res.Truncation)
	}
}

func TestWalkDeadlineReturnsPartialTree(t *testing.T) {
	tr := listTree(400)
	tr.delay = 30 * time.Millisecond
	b := model.WideBudget()
	b.Deadline = 70 * time.Millisecond
	start := time.Now()
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: b})
	if el := time.Since(start); el > time.Second {
		t.Fatalf("walk took %v past a 70 ms deadline", el)
	}
	if len(res.Nodes) == 0 || !res.Incomplete || !slices.Contains(res.Truncation, model.TruncatedDeadline) {
		t.Fatalf("got %d nodes, incomplete=%v, cuts %v; want a partial tree cut by the deadline", len(res.Nodes), res.Incomplete, res.Truncation)
	}
}

func TestWalkPipelinesInBatches(t *testing.T) {
	tr := listTree(400)
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.WideBudget()})
	if len(res.Nodes) != 804 {
		t.Fatalf("walked %d, want 804", len(res.Nodes))
	}
	// one call per tree level at most a few times over: not one call per element.
	if c := tr.calls.Load(); c > 20 {
		t.Fatalf("%d Read calls for 804 elements: not batched", c)
	}
}

func TestWalkSkipsVanishedElements(t *testing.T) {
	tr := listTree(3)
	delete(tr.nodes, "row1")
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.WideBudget()})
	if !res.Incomplete || !slices.Contains(res.Truncation, model.IncompleteRead) || len(res.Nodes) != 8 {
		t.Fatalf("got %d nodes, cuts %v", len(res.Nodes), res.Truncation)
	}
}

// repairingReader is a backend whose kept child list of "doc" still names "old", replaced by
// "new" without an event: reading "old" finds it gone, and the backend drops the kept list.
type repairingReader struct {
	*treeReader
	repaired bool
}

func (r *repairingReader) Read(ctx context.Context, refs []model.NodeRef) []model.Node {
	out := r.treeReader.Read(ctx, refs)
	for i, n := range out {
		switch {
		case n.Ref == "panel" && !r.repaired:
			out[i].Children = []model.NodeRef{"old"}
		case n.Ref == "old" && n.Err != nil:
			r.repaired = true
		}
	}
	return out
}

func TestWalkStartsAgainWhenAKeptChildHasGone(t *testing.T) {
	tr := &treeReader{}
	tr.add("", "win", model.RoleWindow, rect(0, 0, 800, 600))
	tr.add("win", "panel", model.RolePanel, rect(0, 0, 800, 600))
	tr.add("panel", "new", model.RoleWebArea, rect(0, 0, 800, 600))
	tr.add("new", "text", model.RoleText, rect(0, 0, 80, 20))
	res := Walk(context.Background(), &repairingReader{treeReader: tr}, "win", WalkOptions{Budget: model.WideBudget()})
	if res.Incomplete || len(res.Nodes) != 4 || res.Nodes[2].Ref != "new" {
		t.Fatalf("got %v, cuts %v: want the new child read, whole", res.Nodes, res.Truncation)
	}
}

func TestScanListsTheVisibleRowsOfAScrolledList(t *testing.T) {
	tr := &boundsTree{treeReader: scrolledList(400, 340)}
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.UnscopedBudget(), VisibleOnly: true})
	var rows []model.NodeRef
	for _, w := range res.Nodes {
		if w.Role == model.RoleRow {
			rows = append(rows, w.Ref)
		}
	}
	// rows 340..349 fill the viewport, 339 and 350 touch its edges
	if len(rows) != 12 || rows[0] != "row339" || rows[11] != "row350" {
		t.Fatalf("listed rows %v, want row339..row350", rows)
	}
	if slices.Contains(res.Truncation, model.TruncatedChildren) {
		t.Fatalf("the scan passed the viewport: no children were cut, got %v", res.Truncation)
	}
	// bounds of rows 0..399 at most were read; only the visible ones were read in full
	if full := tr.reads.Load(); full > 4+12*2 {
		t.Fatalf("%d full reads for 12 visible rows", full)
	}
}

func TestScanStopsAfterTheViewport(t *testing.T) {
	tr := &boundsTree{treeReader: listTree(400)}
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.UnscopedBudget(), VisibleOnly: true})
	if b := tr.boundsReads.Load(); b != scanFirst {
		t.Fatalf("read the bounds of %d rows; the first %d show the viewport passed", b, scanFirst)
	}
	if res.OffscreenOmitted != scanFirst-11 {
		t.Fatalf("offscreen_omitted = %d, want %d", res.OffscreenOmitted, scanFirst-11)
	}
}

func TestScanCountsVisibleChildrenAgainstTheBudget(t *testing.T) {
	tr := &boundsTree{treeReader: listTree(400)}
	b := model.UnscopedBudget()
	b.MaxChildren = 5
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: b, VisibleOnly: true})
	rows := 0
	for _, w := range res.Nodes {
		if w.Role == model.RoleRow {
			rows++
		}
	}
	if rows != 5 || !slices.Contains(res.Truncation, model.TruncatedChildren) {
		t.Fatalf("%d rows with cuts %v; want 5 and truncated_children", rows, res.Truncation)
	}
}

func TestScanKeepsTheFocusPathPastTheScan(t *testing.T) {
	tr := &boundsTree{treeReader: listTree(1500)}
	res := Walk(context.Background(), tr, "win", WalkOptions{Budget: model.UnscopedBudget(), VisibleOnly: true,
		Keep: []model.NodeRef{"win", "scroll", "list", "row1200", "row1200.text"}})
	if !slices.ContainsFunc(res.Nodes, func(w Walked) bool { return w.Ref == "row1200.text" }) {
		t.Fatal("the focused row past the scan limit was not listed")
	}
}

// knowingTree is a boundsTree that knows every element's children without reading them, as a
// watched backend does; wrong holds the stale lists it claims for some elements instead.
type knowingTree struct {
	*boundsTree
	wrong map[model.NodeRef][]model.NodeRef
}

func (t *knowingTree) KnownChildren(ref model.NodeRef) []model.NodeRef {
	if k, ok := t.wrong[ref]; ok {
		return k
	}
	return t.nodes[ref].Children
}

// walkShape is what a walk found, for comparing two walks.
func walkShape(res WalkResult) string {
	var b []string
	for _, w := range res.Nodes {
		b = append(b, fmt.Sprintf("%s<%d@%d", w.Ref, w.Parent, w.Depth))
	}
	cuts := slices.Clone(res.Truncation)
	slices.Sort(cuts)
	return fmt.Sprint(b, cuts, res.Incomplete, res.OffscreenOmitted)
}

func TestWalkReadsKnownChildrenWithTheirParent(t *testing.T) {
	focus := []model.NodeRef{"win", "scroll", "list", "row40", "row40.text"}
	cases := []struct {
		name string
		tree func() *treeReader
		opt  WalkOptions
	}{
		{"wide", func() *treeReader { return listTree(400) }, WalkOptions{Budget: model.WideBudget()}},
		{"visible", func() *treeReader { return listTree(400) }, WalkOptions{Budget: model.UnscopedBudget(), VisibleOnly: true}},
		{"scrolled", func() *treeReader { return scrolledList(400, 340) }, WalkOptions{Budget: model.UnscopedBudget(), VisibleOnly: true}},
		{"focus kept", func() *treeReader { return listTree(50) }, WalkOptions{Budget: model.UnscopedBudget(), VisibleOnly: true, Keep: focus}},
		{"count", func() *treeReader { return listTree(400) }, WalkOptions{Budget: model.Budget{MaxDepth: 64, MaxElements: 25, MaxChildren: 1000}}},
		{"depth", func() *treeReader { return listTree(20) }, WalkOptions{Budget: model.Budget{MaxDepth: 2, MaxElements: 100, MaxChildren: 100}}},
		{"children", func() *treeReader { return listTree(20) }, WalkOptions{Budget: model.Budget{MaxDepth: 64, MaxElements: 100, MaxChildren: 5}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plain := &boundsTree{treeReader: c.tree()}
			want := Walk(context.Background(), plain, "win", c.opt)
			right := &knowingTree{boundsTree: &boundsTree{treeReader: c.tree()}}
			if got := Walk(context.Background(), right, "win", c.opt); walkShape(got) != walkShape(want) {
				t.Fatalf("with known children the walk found\n%s\nwithout\n%s", walkShape(got), walkShape(want))
			}
			if p, k := plain.calls.Load(), right.calls.Load(); k >= p {
				t.Fatalf("%d Read calls with known children, %d without: no round trip saved", k, p)
			}
			// Stale guesses: a row gone, one added, the order changed, a subtree that moved.
			stale := &knowingTree{boundsTree: &boundsTree{treeReader: c.tree()}, wrong: map[model.NodeRef][]model.NodeRef{
				"win":    {"scroll", "btn"},
				"scroll": {"list", "ghost"},
				"list":   {"row1", "row0", "row2"},
				"row0":   {"row1.text"},
			}}
			if got := Walk(context.Background(), stale, "win", c.opt); walkShape(got) != walkShape(want) {
				t.Fatalf("with stale children the walk found\n%s\nwithout\n%s", walkShape(got), walkShape(want))
			}
		})
	}
}
