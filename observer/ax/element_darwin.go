package ax

import (
	"time"

	"github.com/axbus/axbus/model"
)

// Element handles: the handle table (handles.go) of retained AXUIElementRefs, compared with
// CFEqual and bucketed by CFHash, each with the messaging timeout set before its first call.

// refLimit bounds the ordinary elements of the table.
const refLimit = 100_000

// refTable maps handles to retained elements. It is safe for concurrent use.
type refTable struct {
	*handleTable[uintptr]
}

func newRefTable(timeout time.Duration) *refTable {
	seconds := float32(timeout.Seconds())
	return &refTable{newHandleTable(objectOps[uintptr]{
		equal:   func(a, b uintptr) bool { return cfEqual(a, b) != 0 },
		retain:  cfRetain,
		release: cfRelease,
		added:   func(ax uintptr) { axUIElementSetMessagingTimeout(ax, seconds) },
	}, refLimit)}
}

// keyOf is ax's bucket; false when ax is not an element of a process.
func keyOf(ax uintptr) (handleKey, bool) {
	var pid int32
	if axUIElementGetPid(ax, &pid) != AXSuccess || pid <= 0 {
		return handleKey{}, false
	}
	return handleKey{pid: int(pid), hash: cfHash(ax)}, true
}

// intern returns the handle of ax (borrowed), adding it when it is new. It is "" when ax is not
// an element of a process.
func (t *refTable) intern(ax uintptr) model.NodeRef {
	key, ok := keyOf(ax)
	if !ok {
		return ""
	}
	return t.add(ax, key, false)
}

// internApp is intern for an application element, which the table never evicts.
func (t *refTable) internApp(ax uintptr) model.NodeRef {
	key, ok := keyOf(ax)
	if !ok {
		return ""
	}
	return t.add(ax, key, true)
}

// lookup returns the handle ax already has, "" when it has none; it never adds one (a destroyed
// element must not get a handle, nor a call to set its timeout).
func (t *refTable) lookup(ax uintptr) model.NodeRef {
	key, ok := keyOf(ax)
	if !ok {
		return ""
	}
	ref, _ := t.find(ax, key)
	return ref
}
