package live

import (
	"sync"

	"github.com/axbus/axbus/model"
)

// markKind says what an event makes a cycle re-read about an element.
type markKind uint8

const (
	// markSelf re-reads the element; its fresh child list shows children added and removed.
	markSelf markKind = 1 << iota
	// markChildren re-reads its children too: a selection change is posted on the container.
	markChildren
	// markSubtree re-reads everything under it: a move shifts the bounds of the whole subtree.
	markSubtree
	// markDestroyed forgets the element and its subtree without reading.
	markDestroyed
)

// markOf is what an event of type t asks a cycle to do about the element it names.
func markOf(t model.EventType) markKind {
	switch t {
	case model.EventElementDestroyed, model.EventWindowClosed:
		return markDestroyed
	case model.EventSelectionChanged:
		return markSelf | markChildren
	case model.EventLayoutChanged:
		return markSelf | markSubtree
	case model.EventAnnouncement, model.EventAppLaunched, model.EventAppTerminated, model.EventAppActivated:
		return 0 // nothing in the tree changed
	}
	return markSelf
}

// marks collect what events said changed in one app since its last cycle. The subscription's
// callback (route) records into them and returns at once; the cycle takes them. They are
// bounded: past limit elements the next cycle reads the whole window instead, which then costs
// less.
type marks struct {
	mu         sync.Mutex
	limit      int
	refs       map[model.NodeRef]markKind
	focusMoved bool
	overflow   bool
	terminated bool
}

// markSet is what one cycle took from the marks.
type markSet struct {
	refs       map[model.NodeRef]markKind
	focusMoved bool
	overflow   bool
}

func newMarks(limit int) *marks { return &marks{limit: limit, refs: map[model.NodeRef]markKind{}} }

// note records e. It never blocks on anything but the marks' own short critical section.
func (m *marks) note(e model.Event) {
	kind := markOf(e.Type)
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case e.Type == model.EventAppTerminated:
		m.terminated = true
	case kind == 0 || e.Ref == "":
	case len(m.refs) >= m.limit:
		m.overflow = true
	default:
		m.refs[e.Ref] |= kind
		if e.Child != "" && e.Type == model.EventChildrenChanged && e.Detail["op"] == "add" {
			m.refs[e.Child] |= markSelf // read with its parent: the parent's fresh list places it
		}
	}
	if e.Type == model.EventFocusChanged {
		m.focusMoved = true
	}
}

// again puts refs back for the next cycle: their read failed for a reason that may pass.
func (m *marks) again(refs []model.NodeRef) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range refs {
		m.refs[r] |= markSelf
	}
}

// mark puts refs back with what to read of each.
func (m *marks) mark(refs map[model.NodeRef]markKind) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for r, kind := range refs {
		m.refs[r] |= kind
	}
}

// take returns what was marked and starts afresh.
func (m *marks) take() markSet {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := markSet{refs: m.refs, focusMoved: m.focusMoved, overflow: m.overflow}
	m.refs, m.focusMoved, m.overflow = map[model.NodeRef]markKind{}, false, false
	return s
}

// terminate marks the app as exited: its next cycle ends its poller.
func (m *marks) terminate() {
	m.mu.Lock()
	m.terminated = true
	m.mu.Unlock()
}

func (m *marks) ended() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.terminated
}

// pending counts the elements marked and not yet taken.
func (m *marks) pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.refs)
}
