package live

import (
	"context"
	"slices"
	"testing"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
)

// memTree is a tree whose child lists a test edits directly, the way an AT-SPI app changes and
// then posts children-changed on the parent (the simulated desktop posts AXCreated on the new
// element instead, as macOS does). Refs listed in failing read as TRANSIENT.
type memTree struct {
	nodes   map[model.NodeRef]*model.Node
	failing map[model.NodeRef]bool
	reads   int
	calls   int // Read calls: round trips to the app
}

func newMemTree() *memTree {
	m := &memTree{nodes: map[model.NodeRef]*model.Node{}, failing: map[model.NodeRef]bool{}}
	m.add("", "win")
	return m
}

func (m *memTree) Read(_ context.Context, refs []model.NodeRef) []model.Node {
	m.reads += len(refs)
	m.calls++
	out := make([]model.Node, len(refs))
	for i, r := range refs {
		n, ok := m.nodes[r]
		switch {
		case m.failing[r]:
			out[i] = model.Node{Ref: r, Err: model.Errorf(model.CodeTransient, "-", "busy")}
		case !ok:
			out[i] = model.Node{Ref: r, Err: model.Errorf(model.CodeElementNotFound, "-", "gone")}
		default:
			out[i] = *n
			out[i].Children = slices.Clone(n.Children)
		}
	}
	return out
}

// add creates ref as the last child of parent.
func (m *memTree) add(parent, ref model.NodeRef) {
	m.nodes[ref] = &model.Node{Ref: ref, Role: model.RoleGroup, Name: string(ref)}
	if parent != "" {
		m.nodes[parent].Children = append(m.nodes[parent].Children, ref)
	}
}

// unlink takes ref out of parent's child list, leaving the element itself readable.
func (m *memTree) unlink(parent, ref model.NodeRef) {
	p := m.nodes[parent]
	p.Children = slices.DeleteFunc(p.Children, func(c model.NodeRef) bool { return c == ref })
}

// polledTreeOf reads m whole, as a reset does, and counts only the reads after it.
func polledTreeOf(m *memTree) *polledTree { return polledTreeWithin(m, model.WideBudget()) }

// polledTreeWithin is polledTreeOf with budget b.
func polledTreeWithin(m *memTree, b model.Budget) *polledTree {
	w := observer.Walk(context.Background(), m, "win", observer.WalkOptions{Budget: b})
	m.reads, m.calls = 0, 0
	return pollTree(model.Window{ID: "win", Ref: "win"}, &w, b)
}

// sampleTree: win holds a (with a.0) and b (with b.0, which holds b.0.0).
func sampleTree() *memTree {
	m := newMemTree()
	for _, e := range [][2]model.NodeRef{{"win", "a"}, {"a", "a.0"}, {"win", "b"}, {"b", "b.0"}, {"b.0", "b.0.0"}} {
		m.add(e[0], e[1])
	}
	return m
}

func markedSelf(refs ...model.NodeRef) markSet {
	s := markSet{refs: map[model.NodeRef]markKind{}}
	for _, r := range refs {
		s.refs[r] = markSelf
	}
	return s
}

func namesOf(elems []model.DiffElement) []string {
	out := make([]string, len(elems))
	for i, e := range elems {
		out[i] = e.Name
	}
	return out
}

// children-changed on a parent: the new child is read with its subtree, one read per level.
func TestApplyMarksAddsTheSubtreeOfANewChild(t *testing.T) {
	m := sampleTree()
	tree := polledTreeOf(m)
	m.add("a", "a.1")
	m.add("a.1", "a.1.0")
	d, retry := applyMarks(context.Background(), m, tree, markedSelf("a"))
	if got := namesOf(d.added); !slices.Equal(got, []string{"a.1", "a.1.0"}) || len(d.removed)+len(d.changed)+len(retry) != 0 {
		t.Fatalf("added %v, removed %d, changed %d", got, len(d.removed), len(d.changed))
	}
	if d.added[0].Parent != model.ElementKey("a") || d.added[1].Parent != model.ElementKey("a.1") || tree.elems["a.1.0"].depth != 3 {
		t.Errorf("added %+v", d.added)
	}
	if m.reads != 3 {
		t.Errorf("read %d elements, want a, a.1 and a.1.0", m.reads)
	}
}

// A children-changed that names the child added (AT-SPI's does) has it read with its parent, in
// the same call: the parent's fresh list places it without a second round trip. What the cycle
// read is listed as read.
func TestApplyMarksReadsANamedChildWithItsParent(t *testing.T) {
	m := sampleTree()
	tree := polledTreeOf(m)
	m.add("a", "a.1")
	marks := newMarks(maxMarks)
	marks.note(model.Event{Type: model.EventChildrenChanged, Ref: "a", Child: "a.1", Detail: map[string]any{"op": "add", "index": 1}})
	d, _ := applyMarks(context.Background(), m, tree, marks.take())
	if got := namesOf(d.added); !slices.Equal(got, []string{"a.1"}) || tree.elems["a.1"].parent != "a" {
		t.Fatalf("added %v", got)
	}
	if m.calls != 1 || m.reads != 2 {
		t.Errorf("%d calls reading %d elements: want a and a.1 in one", m.calls, m.reads)
	}
	if slices.Sort(d.read); !slices.Equal(d.read, []model.NodeRef{"a", "a.1"}) {
		t.Errorf("read %v", d.read)
	}
	// A removal names the child too: it is not read, its parent's list drops it.
	m.unlink("a", "a.1")
	marks.note(model.Event{Type: model.EventChildrenChanged, Ref: "a", Child: "a.1", Detail: map[string]any{"op": "remove", "index": 1}})
	m.reads = 0
	if d, _ = applyMarks(context.Background(), m, tree, marks.take()); m.reads != 1 || len(d.removed) != 1 {
		t.Errorf("a removal: %d reads, removed %v", m.reads, namesOf(d.removed))
	}
}

// A child that left its parent's list is removed with its subtree; one that moved under
// another re-read parent is a change of parent, not a removal and an addition.
func TestApplyMarksRemovesAndMoves(t *testing.T) {
	m := sampleTree()
	tree := polledTreeOf(m)
	m.unlink("b", "b.0")
	m.add("a", "b.0") // b.0 and its subtree move under a
	m.unlink("a", "a.0")
	delete(m.nodes, "a.0")
	d, _ := applyMarks(context.Background(), m, tree, markedSelf("a", "b"))
	if got := namesOf(d.removed); !slices.Equal(got, []string{"a.0"}) || len(d.added) != 0 {
		t.Fatalf("removed %v, added %v; want a.0 removed alone", got, namesOf(d.added))
	}
	if len(d.changed) != 1 || d.changed[0].Name != "b.0" {
		t.Fatalf("changed %+v, want b.0 moved", d.changed)
	}
	if fc := d.changed[0].Changes["parent"]; fc.Old != model.ElementKey("b") || fc.New != model.ElementKey("a") {
		t.Errorf("parent %v -> %v", fc.Old, fc.New)
	}
	if got := namesOf(tree.all()); !slices.Equal(got, []string{"win", "a", "b.0", "b.0.0", "b"}) {
		t.Errorf("tree now %v", got)
	}
}

// An element that cannot be read for now is tried again next cycle; one gone is removed.
func TestApplyMarksRetriesTransientFailures(t *testing.T) {
	m := sampleTree()
	tree := polledTreeOf(m)
	m.failing["a"] = true
	delete(m.nodes, "b.0.0")
	d, retry := applyMarks(context.Background(), m, tree, markedSelf("a", "b.0.0"))
	if !slices.Equal(retry, []model.NodeRef{"a"}) || tree.elems["a"] == nil {
		t.Errorf("retry %v; want a kept and tried again", retry)
	}
	if got := namesOf(d.removed); !slices.Equal(got, []string{"b.0.0"}) || slices.Contains(tree.elems["b.0"].children, "b.0.0") {
		t.Errorf("removed %v", got)
	}
}

// The poller's copy never holds more than its budget's elements: children that appear in a
// full copy are neither read nor added, and the diff says it was cut; room made by a removal
// takes the next one.
func TestApplyMarksKeepsTheCopyWithinItsBudget(t *testing.T) {
	m := sampleTree() // 6 elements
	b := model.WideBudget()
	b.MaxElements = 6
	tree := polledTreeWithin(m, b)
	m.add("a", "a.1")
	m.add("a.1", "a.1.0")
	d, _ := applyMarks(context.Background(), m, tree, markedSelf("a"))
	if len(d.added) != 0 || len(tree.elems) != 6 || !slices.Equal(d.truncation, []model.Truncation{model.TruncatedCount}) {
		t.Fatalf("added %v to a full copy (%d elements), truncation %v", namesOf(d.added), len(tree.elems), d.truncation)
	}
	if m.reads != 1 {
		t.Errorf("read %d elements, want a alone: what cannot be kept is not read", m.reads)
	}

	m.unlink("b.0", "b.0.0")
	delete(m.nodes, "b.0.0")
	if d, _ = applyMarks(context.Background(), m, tree, markedSelf("b.0")); len(d.removed) != 1 || len(tree.elems) != 5 {
		t.Fatalf("removed %d, %d elements left; want b.0.0 removed", len(d.removed), len(tree.elems))
	}
	d, _ = applyMarks(context.Background(), m, tree, markedSelf("a"))
	if got := namesOf(d.added); !slices.Equal(got, []string{"a.1"}) || len(tree.elems) != 6 || len(d.truncation) != 1 {
		t.Fatalf("added %v, %d elements, truncation %v; want a.1 in the room b.0.0 left, a.1.0 cut", got, len(tree.elems), d.truncation)
	}
	if tree.elems["a.1"].node != nil {
		t.Error("the poller's copy keeps whole nodes; its diffs need the summary alone")
	}
}
