package ax

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/axbus/axbus/observer"
)

// Element handles. An observer.NodeRef of this backend is "ax:<pid>:<n>": the n-th element the
// backend met, kept retained in a table. Elements are compared with CFEqual (bucketed by
// CFHash), so one element keeps one handle however it was reached. The table forgets the
// elements of an app that exits, an element reported invalid, and, past its size limit, the
// elements unused for longest.

// refLimit bounds the table; going over it evicts the least recently used quarter.
const refLimit = 100_000

// element is one retained AXUIElementRef and what the backend learnt about it.
type element struct {
	ref      observer.NodeRef
	ax       uintptr
	pid      int
	hash     uintptr
	used     uint64 // the table's use clock at the last lookup
	role     string // AXRole and AXSubrole, once read: they decide whether AXValue may be read
	subrole  string
	roleRead bool
	settable []string // the SettableCandidates found settable, once asked
	asked    bool
}

// elemInfo is a copy of what the table knows of an element, taken under its lock.
type elemInfo struct {
	pid           int
	role, subrole string
	roleRead      bool
	settable      []string
	asked         bool
}

// refTable maps handles to retained elements. It is safe for concurrent use.
type refTable struct {
	timeout float32 // the messaging timeout set on each element before its first call

	mu     sync.Mutex
	next   uint64
	clock  uint64
	byRef  map[observer.NodeRef]*element
	byHash map[uintptr][]*element
}

func newRefTable(timeout time.Duration) *refTable {
	return &refTable{timeout: float32(timeout.Seconds()), byRef: map[observer.NodeRef]*element{}, byHash: map[uintptr][]*element{}}
}

// makeRef is the handle of the n-th element, of app pid.
func makeRef(pid int, n uint64) observer.NodeRef {
	return observer.NodeRef("ax:" + strconv.Itoa(pid) + ":" + strconv.FormatUint(n, 10))
}

// parseRef returns the pid and number of a handle of this backend.
func parseRef(ref observer.NodeRef) (pid int, n uint64, ok bool) {
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
func windowID(ref observer.NodeRef) string {
	_, n, _ := parseRef(ref)
	return "w" + strconv.FormatUint(n, 10)
}

// intern returns the handle of ax (borrowed), adding it to the table, retained and with its
// messaging timeout set, when it is new. It is "" when ax is not an element of a process.
func (t *refTable) intern(ax uintptr) observer.NodeRef {
	var pid int32
	if axUIElementGetPid(ax, &pid) != AXSuccess || pid <= 0 {
		return ""
	}
	h := cfHash(ax)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clock++
	for _, e := range t.byHash[h] {
		if e.pid == int(pid) && cfEqual(e.ax, ax) != 0 {
			e.used = t.clock
			return e.ref
		}
	}
	t.next++
	e := &element{ref: makeRef(int(pid), t.next), ax: cfRetain(ax), pid: int(pid), hash: h, used: t.clock}
	axUIElementSetMessagingTimeout(e.ax, t.timeout)
	t.byRef[e.ref] = e
	t.byHash[h] = append(t.byHash[h], e)
	if len(t.byRef) > refLimit {
		t.evictLocked()
	}
	return e.ref
}

// acquire returns ref's element retained (the caller releases it) and what is known of it.
func (t *refTable) acquire(ref observer.NodeRef) (uintptr, elemInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.byRef[ref]
	if e == nil {
		return 0, elemInfo{}, errUnknownRef(ref)
	}
	t.clock++
	e.used = t.clock
	return cfRetain(e.ax), elemInfo{pid: e.pid, role: e.role, subrole: e.subrole, roleRead: e.roleRead,
		settable: e.settable, asked: e.asked}, nil
}

// info returns what is known of ref without retaining it.
func (t *refTable) info(ref observer.NodeRef) (elemInfo, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.byRef[ref]
	if e == nil {
		return elemInfo{}, false
	}
	return elemInfo{pid: e.pid, role: e.role, subrole: e.subrole, roleRead: e.roleRead, settable: e.settable, asked: e.asked}, true
}

// setRole records ref's role and subrole.
func (t *refTable) setRole(ref observer.NodeRef, role, subrole string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.byRef[ref]; e != nil {
		e.role, e.subrole, e.roleRead = role, subrole, true
	}
}

// setSettable records which of its SettableCandidates ref can set.
func (t *refTable) setSettable(ref observer.NodeRef, settable []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.byRef[ref]; e != nil {
		e.settable, e.asked = settable, true
	}
}

// forget drops ref.
func (t *refTable) forget(ref observer.NodeRef) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.byRef[ref]; e != nil {
		t.dropLocked(e)
	}
}

// forgetApp drops every element of app pid.
func (t *refTable) forgetApp(pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.byRef {
		if e.pid == pid {
			t.dropLocked(e)
		}
	}
}

// clear drops every element.
func (t *refTable) clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.byRef {
		t.dropLocked(e)
	}
}

// evictLocked drops the least recently used quarter of the table.
func (t *refTable) evictLocked() {
	all := make([]*element, 0, len(t.byRef))
	for _, e := range t.byRef {
		all = append(all, e)
	}
	slices.SortFunc(all, func(a, b *element) int { return cmp.Compare(a.used, b.used) })
	for _, e := range all[:len(all)/4] {
		t.dropLocked(e)
	}
}

// dropLocked removes e and releases the table's reference; a caller that acquired it still
// holds its own.
func (t *refTable) dropLocked(e *element) {
	delete(t.byRef, e.ref)
	bucket := slices.DeleteFunc(t.byHash[e.hash], func(x *element) bool { return x == e })
	if len(bucket) == 0 {
		delete(t.byHash, e.hash)
	} else {
		t.byHash[e.hash] = bucket
	}
	cfRelease(e.ax)
}

func errUnknownRef(ref observer.NodeRef) *observer.Error {
	if _, _, ok := parseRef(ref); !ok {
		return observer.Errorf(observer.CodeBadRequest, "Use an element id from a listing of the macOS backend.",
			"%q is not an element handle of the macOS backend", ref)
	}
	return observer.Errorf(observer.CodeStaleRef, "Inspect again to get fresh ids.",
		"element %s is no longer known (it was destroyed, its app exited, or it was unused for long)", ref)
}
