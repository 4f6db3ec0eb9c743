package ax

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/axbus/axbus/model"
)

// The table of element handles, apart from the platform's objects it holds (element_darwin.go
// puts retained AXUIElementRefs in it). A handle is "ax:<pid>:<n>", the n-th object the table
// met; an object is found again by its hash and an equality the platform supplies, so one
// element keeps one handle however it was reached. The table forgets what it is told to (an
// element destroyed or invalid, an app that exited) and, past its limit of ordinary elements,
// the least recently used quarter of them. App elements and windows are never evicted: every
// other element is reached from them, and a client holds on to them longest.

// objectOps are the platform's operations on the objects of a table.
type objectOps[T any] struct {
	equal   func(a, b T) bool // the same element (CFEqual)
	retain  func(T) T         // another reference: the table's own, or a caller's (CFRetain)
	release func(T)           // (CFRelease)
	added   func(T)           // once, on an object the table has just retained (the messaging timeout)
}

// handleKey buckets objects: their app and hash.
type handleKey struct {
	pid  int
	hash uintptr
}

// elemInfo is what the table knows of an element, copied out under its lock.
type elemInfo struct {
	pid           int
	role, subrole string // AXRole and AXSubrole, once read: they decide whether AXValue may be read
	roleRead      bool
	settable      []string // the SettableCandidates found settable, once asked
	asked         bool
}

// handleEntry is one object of the table.
type handleEntry[T any] struct {
	ref  model.NodeRef
	obj  T
	key  handleKey
	used uint64 // the table's use clock at the last lookup
	app  bool   // added as an application element
	kept bool   // an app element or a window: never evicted
	info elemInfo
}

// handleTable maps handles to objects. It is safe for concurrent use; ops are called under its
// lock and must not call back into it.
type handleTable[T any] struct {
	ops   objectOps[T]
	limit int

	mu       sync.Mutex
	next     uint64
	clock    uint64
	ordinary int // entries that may be evicted
	byRef    map[model.NodeRef]*handleEntry[T]
	byKey    map[handleKey][]*handleEntry[T]
}

func newHandleTable[T any](ops objectOps[T], limit int) *handleTable[T] {
	return &handleTable[T]{ops: ops, limit: limit, byRef: map[model.NodeRef]*handleEntry[T]{},
		byKey: map[handleKey][]*handleEntry[T]{}}
}

// add returns the handle of obj (borrowed), adding it, retained, when it is new; app marks an
// application element, which is kept.
func (t *handleTable[T]) add(obj T, key handleKey, app bool) model.NodeRef {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clock++
	if e := t.findLocked(obj, key); e != nil {
		e.used = t.clock
		if app && !e.app {
			e.app = true
			t.updateKeptLocked(e)
		}
		return e.ref
	}
	t.next++
	e := &handleEntry[T]{ref: makeRef(key.pid, t.next), obj: t.ops.retain(obj), key: key, used: t.clock, app: app,
		kept: app, info: elemInfo{pid: key.pid}}
	t.ops.added(e.obj)
	t.byRef[e.ref] = e
	t.byKey[key] = append(t.byKey[key], e)
	if !e.kept {
		t.ordinary++
	}
	if t.ordinary > t.limit {
		t.evictLocked()
	}
	return e.ref
}

// find returns the handle obj already has; it never adds one.
func (t *handleTable[T]) find(obj T, key handleKey) (model.NodeRef, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.findLocked(obj, key); e != nil {
		return e.ref, true
	}
	return "", false
}

func (t *handleTable[T]) findLocked(obj T, key handleKey) *handleEntry[T] {
	for _, e := range t.byKey[key] {
		if t.ops.equal(e.obj, obj) {
			return e
		}
	}
	return nil
}

// acquire returns ref's object retained (the caller releases it) and what is known of it.
func (t *handleTable[T]) acquire(ref model.NodeRef) (obj T, info elemInfo, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.byRef[ref]
	if e == nil {
		return obj, info, errUnknownRef(ref)
	}
	t.clock++
	e.used = t.clock
	return t.ops.retain(e.obj), e.info, nil
}

// info returns what is known of ref without retaining its object.
func (t *handleTable[T]) info(ref model.NodeRef) (elemInfo, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.byRef[ref]; e != nil {
		return e.info, true
	}
	return elemInfo{}, false
}

// setRole records ref's role and subrole; an app element or a window is kept from then on.
func (t *handleTable[T]) setRole(ref model.NodeRef, role, subrole string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.byRef[ref]; e != nil {
		e.info.role, e.info.subrole, e.info.roleRead = role, subrole, true
		t.updateKeptLocked(e)
	}
}

// setSettable records which of its SettableCandidates ref can set.
func (t *handleTable[T]) setSettable(ref model.NodeRef, settable []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.byRef[ref]; e != nil {
		e.info.settable, e.info.asked = settable, true
	}
}

// forget drops ref.
func (t *handleTable[T]) forget(ref model.NodeRef) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.byRef[ref]; e != nil {
		t.dropLocked(e)
	}
}

// forgetApp drops every element of app pid.
func (t *handleTable[T]) forgetApp(pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.byRef {
		if e.key.pid == pid {
			t.dropLocked(e)
		}
	}
}

// clear drops every element.
func (t *handleTable[T]) clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.byRef {
		t.dropLocked(e)
	}
}

// size counts the elements, and the ordinary ones among them.
func (t *handleTable[T]) size() (all, ordinary int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byRef), t.ordinary
}

// keptRole reports whether an element of AX role is kept: an application or a window (sheets and
// drawers are windows of their own). A web page's dialog is an AXGroup: an ordinary element.
func keptRole(role string) bool {
	switch role {
	case "AXApplication", "AXWindow", "AXSheet", "AXDrawer":
		return true
	}
	return false
}

// updateKeptLocked decides whether e is kept and counts it among the ordinary entries or not.
func (t *handleTable[T]) updateKeptLocked(e *handleEntry[T]) {
	kept := e.app || keptRole(e.info.role)
	switch {
	case kept && !e.kept:
		t.ordinary--
	case !kept && e.kept:
		t.ordinary++
	}
	e.kept = kept
}

// evictLocked drops the least recently used quarter of the ordinary entries.
func (t *handleTable[T]) evictLocked() {
	ordinary := make([]*handleEntry[T], 0, t.ordinary)
	for _, e := range t.byRef {
		if !e.kept {
			ordinary = append(ordinary, e)
		}
	}
	slices.SortFunc(ordinary, func(a, b *handleEntry[T]) int { return cmp.Compare(a.used, b.used) })
	for _, e := range ordinary[:len(ordinary)/4] {
		t.dropLocked(e)
	}
}

// dropLocked removes e and releases the table's reference; a caller that acquired it still
// holds its own.
func (t *handleTable[T]) dropLocked(e *handleEntry[T]) {
	delete(t.byRef, e.ref)
	bucket := slices.DeleteFunc(t.byKey[e.key], func(x *handleEntry[T]) bool { return x == e })
	if len(bucket) == 0 {
		delete(t.byKey, e.key)
	} else {
		t.byKey[e.key] = bucket
	}
	if !e.kept {
		t.ordinary--
	}
	t.ops.release(e.obj)
}

// makeRef is the handle of the n-th element, of app pid.
func makeRef(pid int, n uint64) model.NodeRef {
	return model.NodeRef("ax:" + strconv.Itoa(pid) + ":" + strconv.FormatUint(n, 10))
}

// parseRef returns the pid and number of a handle of this backend.
func parseRef(ref model.NodeRef) (pid int, n uint64, ok bool) {
	rest, ok := strings.CutPrefix(string(ref), "ax:")
	if !ok {
		return 0, 0, false
	}
	p, num, ok := strings.Cut(rest, ":")
	if !ok {
		return 0, 0, false
	}
	pid, err1 := strconv.Atoi(p)
	n, err2 := strconv.ParseUint(num, 10, 64)
	return pid, n, err1 == nil && err2 == nil && pid > 0
}

// windowID is a window's short id, "w" and the number of its handle: stable while the backend
// lives, and never mistaken for a title of digits.
func windowID(ref model.NodeRef) string {
	_, n, _ := parseRef(ref)
	return "w" + strconv.FormatUint(n, 10)
}

func errUnknownRef(ref model.NodeRef) *model.Error {
	if _, _, ok := parseRef(ref); !ok {
		return model.Errorf(model.CodeBadRequest, "Use an element id from a listing of the macOS backend.",
			"%q is not an element handle of the macOS backend", ref)
	}
	return model.Errorf(model.CodeStaleRef, "Inspect again to get fresh ids.",
		"element %s is no longer known (it was destroyed, its app exited, or it was unused for long)", ref)
}
