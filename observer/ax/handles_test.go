package ax

import (
	"sync"
	"testing"

	"github.com/axbus/axbus/model"
)

// fakeElem stands for an AXUIElementRef: two refs to one element are equal by id, and refs counts
// the references the table holds and hands out.
type fakeElem struct {
	id   int
	refs *int
}

type fakeElems struct {
	mu    sync.Mutex
	refs  map[int]*int
	added int
}

func newFakeElems() *fakeElems { return &fakeElems{refs: map[int]*int{}} }

// elem is a borrowed reference to element id.
func (f *fakeElems) elem(id int) fakeElem {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refs[id] == nil {
		f.refs[id] = new(int)
	}
	return fakeElem{id: id, refs: f.refs[id]}
}

func (f *fakeElems) ops() objectOps[fakeElem] {
	return objectOps[fakeElem]{
		equal:   func(a, b fakeElem) bool { return a.id == b.id },
		retain:  func(e fakeElem) fakeElem { f.mu.Lock(); *e.refs++; f.mu.Unlock(); return e },
		release: func(e fakeElem) { f.mu.Lock(); *e.refs--; f.mu.Unlock() },
		added:   func(fakeElem) { f.mu.Lock(); f.added++; f.mu.Unlock() },
	}
}

func (f *fakeElems) held(id int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refs[id] == nil {
		return 0
	}
	return *f.refs[id]
}

// keyFor buckets element id of app 7; ids that share id%3 share a hash, to exercise the equality.
func keyFor(id int) handleKey { return handleKey{pid: 7, hash: uintptr(id % 3)} }

func known[T any](t *handleTable[T], ref model.NodeRef) bool {
	_, ok := t.info(ref)
	return ok
}

func TestHandleTableFindsAnElementAgain(t *testing.T) {
	f := newFakeElems()
	tab := newHandleTable(f.ops(), 100)
	a := tab.add(f.elem(1), keyFor(1), false)
	if a != "ax:7:1" {
		t.Errorf("first handle %q, want ax:7:1", a)
	}
	if again := tab.add(f.elem(1), keyFor(1), false); again != a {
		t.Errorf("element 1 again: %q, want %q", again, a)
	}
	b := tab.add(f.elem(4), keyFor(4), false) // same bucket, another element
	if b == a || b != "ax:7:2" {
		t.Errorf("element 4: %q", b)
	}
	if f.held(1) != 1 || f.added != 2 {
		t.Errorf("element 1 held %d times, %d elements added; want 1 and 2", f.held(1), f.added)
	}
	ax, info, err := tab.acquire(a)
	if err != nil || ax.id != 1 || info.pid != 7 || f.held(1) != 2 {
		t.Errorf("acquire = %+v %+v %v, held %d", ax, info, err, f.held(1))
	}
}

func TestHandleTableFindNeverAdds(t *testing.T) {
	f := newFakeElems()
	tab := newHandleTable(f.ops(), 100)
	if ref, ok := tab.find(f.elem(1), keyFor(1)); ok || ref != "" {
		t.Errorf("find of an unknown element = %q, %v", ref, ok)
	}
	if all, _ := tab.size(); all != 0 || f.added != 0 || f.held(1) != 0 {
		t.Errorf("find added: %d elements, %d added, held %d", all, f.added, f.held(1))
	}
	a := tab.add(f.elem(1), keyFor(1), false)
	if ref, ok := tab.find(f.elem(1), keyFor(1)); !ok || ref != a {
		t.Errorf("find = %q, %v; want %q", ref, ok, a)
	}
}

func TestHandleTableAcquireUnknown(t *testing.T) {
	tab := newHandleTable(newFakeElems().ops(), 100)
	if _, _, err := tab.acquire("ax:7:99"); model.CodeOf(err) != model.CodeStaleRef {
		t.Errorf("acquire of a forgotten handle: %v, want STALE_REF", err)
	}
	if _, _, err := tab.acquire("at:1:2"); model.CodeOf(err) != model.CodeBadRequest {
		t.Errorf("acquire of a foreign handle: %v, want BAD_REQUEST", err)
	}
}

func TestHandleTableEvictsLeastRecentlyUsed(t *testing.T) {
	f := newFakeElems()
	tab := newHandleTable(f.ops(), 4)
	var refs []model.NodeRef
	for id := 1; id <= 4; id++ {
		refs = append(refs, tab.add(f.elem(id), keyFor(id), false))
	}
	ax, _, _ := tab.acquire(refs[0]) // element 1 used last: element 2 is the oldest
	tab.ops.release(ax)
	tab.add(f.elem(5), keyFor(5), false)
	if known(tab, refs[1]) || f.held(2) != 0 {
		t.Errorf("element 2 (least recently used) kept, held %d", f.held(2))
	}
	for _, i := range []int{0, 2, 3} {
		if !known(tab, refs[i]) {
			t.Errorf("element %d evicted", i+1)
		}
	}
}

func TestHandleTableNeverEvictsAppsAndWindows(t *testing.T) {
	f := newFakeElems()
	const limit = 8
	tab := newHandleTable(f.ops(), limit)
	app := tab.add(f.elem(1), keyFor(1), true)
	kept := map[model.NodeRef]string{app: "app"}
	for id, role := range map[int]string{2: "AXWindow", 3: "AXSheet", 4: "AXDrawer", 5: "AXApplication"} {
		r := tab.add(f.elem(id), keyFor(id), false)
		tab.setRole(r, role, "")
		kept[r] = role
	}
	web := tab.add(f.elem(6), keyFor(6), false)
	tab.setRole(web, "AXGroup", "AXApplicationDialog")
	for id := 10; id < 10+20*limit; id++ {
		tab.add(f.elem(id), keyFor(id), false)
		if _, ordinary := tab.size(); ordinary > limit {
			t.Fatalf("%d ordinary elements, limit %d", ordinary, limit)
		}
	}
	for r, what := range kept {
		if !known(tab, r) {
			t.Errorf("%s %s evicted", what, r)
		}
	}
	if known(tab, web) {
		t.Error("a web dialog (an ordinary element) was never evicted")
	}
	// The kept elements do not count towards the limit, so they never make a table evict at each add.
	all, ordinary := tab.size()
	if all-ordinary != len(kept) {
		t.Errorf("%d kept elements, want %d", all-ordinary, len(kept))
	}
}

func TestHandleTableKeepsAnAppReachedBeforeItsRoleWasRead(t *testing.T) {
	f := newFakeElems()
	tab := newHandleTable(f.ops(), 2)
	r := tab.add(f.elem(1), keyFor(1), false) // as AXFocusedApplication would give it
	tab.add(f.elem(1), keyFor(1), true)       // then as appRef does
	for id := 2; id < 20; id++ {
		tab.add(f.elem(id), keyFor(id), false)
	}
	if !known(tab, r) {
		t.Error("the app element was evicted")
	}
}

func TestHandleTableRoleDecidesKeeping(t *testing.T) {
	f := newFakeElems()
	tab := newHandleTable(f.ops(), 100)
	r := tab.add(f.elem(1), keyFor(1), false)
	tab.setRole(r, "AXWindow", "AXStandardWindow")
	if _, ordinary := tab.size(); ordinary != 0 {
		t.Errorf("a window counted as ordinary")
	}
	tab.setRole(r, "AXGroup", "")
	if _, ordinary := tab.size(); ordinary != 1 {
		t.Errorf("an element no longer a window is not ordinary")
	}
	info, _ := tab.info(r)
	if info.role != "AXGroup" || !info.roleRead {
		t.Errorf("info = %+v", info)
	}
}

func TestHandleTableForgetReleases(t *testing.T) {
	f := newFakeElems()
	tab := newHandleTable(f.ops(), 100)
	a := tab.add(f.elem(1), keyFor(1), true)
	tab.add(f.elem(2), keyFor(2), false)
	other := tab.add(f.elem(3), handleKey{pid: 8, hash: 0}, false)
	tab.forget(a)
	if known(tab, a) || f.held(1) != 0 {
		t.Errorf("forgotten app element still known, held %d", f.held(1))
	}
	tab.forgetApp(7)
	if all, ordinary := tab.size(); all != 1 || ordinary != 1 || !known(tab, other) || f.held(2) != 0 {
		t.Errorf("after forgetApp: %d elements (%d ordinary), held %d", all, ordinary, f.held(2))
	}
	tab.clear()
	if all, ordinary := tab.size(); all != 0 || ordinary != 0 || f.held(3) != 0 {
		t.Errorf("after clear: %d elements (%d ordinary), held %d", all, ordinary, f.held(3))
	}
}

func TestHandleTableConcurrentUse(t *testing.T) {
	f := newFakeElems()
	tab := newHandleTable(f.ops(), 50)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				id := g*1000 + i%120
				r := tab.add(f.elem(id), keyFor(id), i%50 == 0)
				if i%7 == 0 {
					tab.setRole(r, "AXWindow", "")
				}
				if ax, _, err := tab.acquire(r); err == nil {
					tab.ops.release(ax)
				}
				if i%11 == 0 {
					tab.forget(r)
				}
			}
		}()
	}
	wg.Wait()
	tab.clear()
	for id := range f.refs {
		if n := f.held(id); n != 0 {
			t.Errorf("element %d still held %d times", id, n)
		}
	}
}

func TestKeptRole(t *testing.T) {
	for role, want := range map[string]bool{"AXApplication": true, "AXWindow": true, "AXSheet": true, "AXDrawer": true,
		"AXGroup": false, "AXButton": false, "": false} {
		if got := keptRole(role); got != want {
			t.Errorf("keptRole(%q) = %v", role, got)
		}
	}
}

func TestRefFormat(t *testing.T) {
	r := makeRef(123, 45)
	pid, n, ok := parseRef(r)
	if r != "ax:123:45" || pid != 123 || n != 45 || !ok || windowID(r) != "w45" {
		t.Errorf("makeRef = %q, parseRef = %d %d %v", r, pid, n, ok)
	}
	for _, bad := range []model.NodeRef{"", "ax:", "ax:0:1", "ax:x:1", "at:1:1", "ax:5"} {
		if _, _, ok := parseRef(bad); ok {
			t.Errorf("parseRef(%q) ok", bad)
		}
	}
}

func TestHandleTableRecordsSettable(t *testing.T) {
	f := newFakeElems()
	tab := newHandleTable(f.ops(), 100)
	r := tab.add(f.elem(1), keyFor(1), false)
	if info, _ := tab.info(r); info.asked {
		t.Errorf("a new element was asked already: %+v", info)
	}
	tab.setSettable(r, []string{"AXValue"})
	_, info, err := tab.acquire(r)
	if err != nil || !info.asked || len(info.settable) != 1 || info.settable[0] != "AXValue" {
		t.Errorf("acquire = %+v, %v", info, err)
	}
}
