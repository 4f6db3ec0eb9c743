package atspi

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/axbus/axbus/model"
)

// refInfo is what the backend remembers of one object between reads: what does not change
// (interfaces, actions, attributes, role) and the last parent seen.
type refInfo struct {
	ifaces      ifaceSet
	haveIfaces  bool
	actions     []string
	haveActions bool
	attrs       map[string]string
	haveAttrs   bool
	role        uint32
	haveRole    bool
	parent      model.NodeRef
	secure      bool
	// The last states and name a read saw, to tell a real change from a toolkit's repetition
	// (GTK4 re-announces unchanged states and names whenever it updates an element).
	states     stateSet
	haveStates bool
	name       string
	haveName   bool
	// children kept between reads: listing 400 rows costs a GTK3 app ~15 ms. A children-changed
	// event drops them, and so does a child count that no longer matches. Without a watch only
	// a long list's are used.
	children []model.NodeRef
	// childCount is the last child count seen: an element that had children has them asked for
	// together with its states on the next read.
	childCount int
	// text of a text element and its length when read; dropped by text-changed and name events.
	text      string
	textCount int32
	haveText  bool
	// value behind the Value interface when read while watching; dropped by its value event.
	value     string
	haveValue bool
	// keptBy is the watch whose events keep states and name true since a read it saw: each
	// state-changed and name event changes them as it arrives, so an event's summary can be
	// told without asking a busy app (libatspi keeps its own cache so). nil: only as last read.
	keptBy *watchState
	// description and accessibleID as the last GetAll gave them; propsBy is the watch whose events
	// keep them, the name, the parent and the child count true since (nil: ask again).
	description  string
	accessibleID string
	propsBy      *watchState
	// acted is the Backend's acted count when the element was last read: its kept text and
	// properties (the child count with them) are used only while no action of ours came since.
	acted uint64
	// changes counts the state, name, text, value, children and property events that changed the
	// element: a read that began before one of them may hold older answers, and does not keep
	// what it read.
	changes uint32
	// askedAt is when a read last began that asked the app everything events keep (children,
	// text, properties) instead of taking it from here: see keptFor.
	askedAt time.Time
}

// keptFor is how long what events keep of an element (its children, text and properties) is
// trusted after the app last said it all: the next read after that asks the app again. Events
// get lost (a toolkit that announces nothing for a change, a replaced page, a signal missed in a
// restart), and no kept state may stay wrong for longer than this.
const keptFor = 2 * time.Second

// trusted reports whether what events kept of the element may stand in for asking the app.
func (ri *refInfo) trusted(now time.Time) bool { return now.Sub(ri.askedAt) < keptFor }

// applyText keeps the kept text true through a text event: the inserted string put at its
// offset, the deleted one taken out where the event says it was. An event that does not fit (a
// text cut at maxTextChars, an offset past the end, a deleted string that is not there) drops
// the text: the next read asks for it.
func (ri *refInfo) applyText(op string, start, length int, s string) {
	if !ri.haveText {
		return
	}
	r := []rune(ri.text)
	change := []rune(s)
	// Offsets count characters; toolkits that count UTF-16 units differ past the BMP, so such
	// text is read again rather than risked.
	fits := int(ri.textCount) == len(r) && start >= 0 && length == len(change) && inBMP(r) && inBMP(change)
	switch {
	case fits && op == "insert" && start <= len(r):
		r = slices.Insert(r, start, change...)
	case fits && op == "delete" && start+length <= len(r) && string(r[start:start+length]) == s:
		r = slices.Delete(r, start, start+length)
	default:
		ri.text, ri.textCount, ri.haveText = "", 0, false
		return
	}
	ri.text, ri.textCount = string(r), int32(len(r))
}

// inBMP reports whether every character is in Unicode's basic multilingual plane.
func inBMP(r []rune) bool {
	for _, c := range r {
		if c > 0xFFFF {
			return false
		}
	}
	return true
}

// acting marks the start and the end of an action of ours: the reads after it ask again what
// the events of its effect, still on their way, would keep true. A read that began while the
// action ran (a watcher's) may hold the app's answer from before it: the mark at its end keeps
// that answer from standing in for the reads after it.
func (b *Backend) acting() { b.acted.Add(1) }

// actionsUnsettled reports whether the element was read as one a user acts on (focusable or
// selectable) but without the Action interface: its interfaces are then asked again on every
// read rather than kept, as are actions read as none or unnamed (Backend.keepActions). A CI run
// once listed no action for a page's Save button in Firefox, opened under a running daemon on a
// loaded machine, in every read after the first.
func (ri *refInfo) actionsUnsettled() bool {
	return ri.haveIfaces && ri.haveStates && interactive(ri.states) && !ri.ifaces.has(ifAction)
}

// keepActions keeps an element's action names, unless it has none or one is unnamed: what is
// read as missing is read again (see actionsUnsettled).
func (b *Backend) keepActions(ref model.NodeRef, names []string) {
	if len(names) == 0 || slices.Contains(names, "") {
		return
	}
	owned := ownedSlice(names)
	b.cache.update(ref, func(ri *refInfo) { ri.actions, ri.haveActions = owned, true })
}

// keptFor reports whether the states and name are kept true by w's events.
func (ri *refInfo) keptFor(w *watchState) bool {
	return w != nil && ri.keptBy == w && ri.haveRole && ri.haveStates && ri.haveName && ri.haveIfaces
}

// keep marks the states and name an answer of a read gave as kept by w, unless an event
// changed them while the read was on its way (changes: what the cache counted when it began).
func (ri *refInfo) keep(w *watchState, changes uint32) {
	if w != nil && ri.changes == changes {
		ri.keptBy = w
	} else {
		ri.keptBy = nil
	}
}

// maxCachedRefs bounds the cache: past it the cache starts over (re-reading costs one call per
// object and interface, never correctness).
const maxCachedRefs = 200_000

// refCache remembers refInfo per object. It is safe for concurrent use.
type refCache struct {
	mu sync.Mutex
	m  map[model.NodeRef]*refInfo
}

func newRefCache() *refCache { return &refCache{m: map[model.NodeRef]*refInfo{}} }

// get returns a copy of what is known of ref.
func (c *refCache) get(ref model.NodeRef) (refInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ri, ok := c.m[ref]; ok {
		return *ri, true
	}
	return refInfo{}, false
}

// children returns the children kept of ref while they are trusted.
func (c *refCache) children(ref model.NodeRef) []model.NodeRef {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ri, ok := c.m[ref]; ok && ri.trusted(time.Now()) {
		return ri.children
	}
	return nil
}

// update changes what is known of ref.
func (c *refCache) update(ref model.NodeRef, fn func(*refInfo)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ri, ok := c.m[ref]
	if !ok {
		if len(c.m) >= maxCachedRefs {
			c.m = map[model.NodeRef]*refInfo{}
		}
		ri = &refInfo{}
		c.m[ref] = ri
	}
	fn(ri)
}

// forget drops what is known of ref (a destroyed element), and the children kept of its parent:
// they named it, so they are wrong whether or not an event said so (Chromium replaces a page's
// document without a children-changed on its parent).
func (c *refCache) forget(ref model.NodeRef) {
	c.mu.Lock()
	if ri, ok := c.m[ref]; ok {
		if p := c.m[ri.parent]; p != nil && slices.Contains(p.children, ref) {
			p.children = nil
		}
	}
	delete(c.m, ref)
	c.mu.Unlock()
}

// dropApp forgets every object of the app on bus.
func (c *refCache) dropApp(bus string) {
	prefix := bus + "|"
	c.mu.Lock()
	for ref := range c.m {
		if strings.HasPrefix(string(ref), prefix) {
			delete(c.m, ref)
		}
	}
	c.mu.Unlock()
}

// len is the number of cached objects.
func (c *refCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// godbus decodes a reply's strings into one shared buffer: a string kept from a reply keeps the
// whole buffer (~4 KB) alive. What the cache keeps it owns: ownedSlice and ownedMap copy.

func ownedSlice(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.Clone(s)
	}
	return out
}

func ownedMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[strings.Clone(k)] = strings.Clone(v)
	}
	return out
}
