package atspi

import (
	"strings"
	"sync"

	"github.com/axbus/axbus/observer"
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
	parent      observer.NodeRef
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
	children []observer.NodeRef
	// childCount is the last child count seen: an element that had children has them asked for
	// together with its states on the next read.
	childCount int
	// text of a text element and its length when read; dropped by text-changed and name events.
	text      string
	textCount int32
	haveText  bool
}

// maxCachedRefs bounds the cache: past it the cache starts over (re-reading costs one call per
// object and interface, never correctness).
const maxCachedRefs = 200_000

// refCache remembers refInfo per object. It is safe for concurrent use.
type refCache struct {
	mu sync.Mutex
	m  map[observer.NodeRef]*refInfo
}

func newRefCache() *refCache { return &refCache{m: map[observer.NodeRef]*refInfo{}} }

// get returns a copy of what is known of ref.
func (c *refCache) get(ref observer.NodeRef) (refInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ri, ok := c.m[ref]; ok {
		return *ri, true
	}
	return refInfo{}, false
}

// children returns the children kept of ref.
func (c *refCache) children(ref observer.NodeRef) []observer.NodeRef {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ri, ok := c.m[ref]; ok {
		return ri.children
	}
	return nil
}

// update changes what is known of ref.
func (c *refCache) update(ref observer.NodeRef, fn func(*refInfo)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ri, ok := c.m[ref]
	if !ok {
		if len(c.m) >= maxCachedRefs {
			c.m = map[observer.NodeRef]*refInfo{}
		}
		ri = &refInfo{}
		c.m[ref] = ri
	}
	fn(ri)
}

// forget drops what is known of ref (a destroyed element).
func (c *refCache) forget(ref observer.NodeRef) {
	c.mu.Lock()
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
