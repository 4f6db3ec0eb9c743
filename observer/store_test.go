package observer

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/axbus/axbus/model"
)

func snapshotOf(id string, nodes int, text int) *Snapshot {
	s := &Snapshot{ID: id, Created: time.Unix(1000, 0)}
	for i := range nodes {
		s.Walk.Nodes = append(s.Walk.Nodes, Walked{Node: model.Node{Name: strings.Repeat("x", text)}, Index: i})
	}
	return s
}

func TestStoreExpiresAfterTTL(t *testing.T) {
	now := time.Unix(1000, 0)
	st := NewStore(DefaultStoreLimits(), func() time.Time { return now })
	st.Put(snapshotOf("s_1", 3, 10))
	if _, err := st.Get("s_1"); err != nil {
		t.Fatal(err)
	}
	now = now.Add(10 * time.Minute)
	_, err := st.Get("s_1")
	if model.CodeOf(err) != model.CodeSnapshotExpired || model.AsError(err).Suggestion == "" {
		t.Fatalf("after 10 minutes: %v, want SNAPSHOT_EXPIRED with a suggestion", err)
	}
	if n, b := st.Stats(); n != 0 || b != 0 {
		t.Fatalf("expired snapshot still counted: %d, %d bytes", n, b)
	}
	if !errors.Is(err, &model.Error{Code: model.CodeSnapshotExpired}) {
		t.Fatal("errors.Is by code failed")
	}
}

func TestStoreBoundsCountWithLRU(t *testing.T) {
	st := NewStore(StoreLimits{TTL: time.Hour, MaxCount: 3, MaxBytes: 1 << 30}, func() time.Time { return time.Unix(1000, 0) })
	for i := range 3 {
		st.Put(snapshotOf(fmt.Sprint("s_", i), 1, 1))
	}
	if _, err := st.Get("s_0"); err != nil { // s_0 becomes the most recently used
		t.Fatal(err)
	}
	st.Put(snapshotOf("s_3", 1, 1))
	if _, err := st.Get("s_1"); model.CodeOf(err) != model.CodeSnapshotExpired {
		t.Fatalf("least recently used s_1 should be evicted, got %v", err)
	}
	for _, id := range []string{"s_0", "s_2", "s_3"} {
		if _, err := st.Get(id); err != nil {
			t.Fatalf("%s evicted: %v", id, err)
		}
	}
}

func TestStoreBoundsBytes(t *testing.T) {
	const limit = 2 << 20
	st := NewStore(StoreLimits{TTL: time.Hour, MaxCount: 1 << 20, MaxBytes: limit}, func() time.Time { return time.Unix(1000, 0) })
	one := snapshotOf("probe", 200, 1000).size()
	for i := range 100 { // ~20 MB offered to a 2 MB store
		st.Put(snapshotOf(fmt.Sprint("s_", i), 200, 1000))
		if _, b := st.Stats(); b > limit {
			t.Fatalf("after %d puts the store holds %d bytes > %d", i+1, b, limit)
		}
	}
	n, b := st.Stats()
	if n != limit/one || b != n*one {
		t.Fatalf("holds %d snapshots, %d bytes; want %d of %d bytes", n, b, limit/one, one)
	}
	if _, err := st.Get("s_99"); err != nil {
		t.Fatal("newest snapshot evicted")
	}
	if _, err := st.Get("s_0"); err == nil {
		t.Fatal("oldest snapshot kept past the byte bound")
	}
}

func TestStoreKeepsOneOversizedSnapshot(t *testing.T) {
	st := NewStore(StoreLimits{TTL: time.Hour, MaxCount: 10, MaxBytes: 100}, nil)
	big := snapshotOf("s_big", 10, 100)
	big.Created = time.Now()
	st.Put(big)
	if _, err := st.Get("s_big"); err != nil {
		t.Fatal("a snapshot larger than the bound must still be kept alone")
	}
}

func TestGenerations(t *testing.T) {
	g := newGenerations()
	a := g.of(100, ":1.5")
	if g.of(100, ":1.5") != a {
		t.Fatal("same instance changed generation")
	}
	b := g.of(100, ":1.9") // pid reused by another instance
	if b <= a {
		t.Fatalf("reused pid kept generation %d", b)
	}
	c := g.launched(200, "")
	if g.of(200, ":1.12") != c {
		t.Fatal("an instance seen after its launch event must adopt the launch's generation")
	}
	if g.of(300, "") == c {
		t.Fatal("two apps share a generation")
	}
	if g.launched(200, ":1.12") != c || g.of(200, ":1.12") != c {
		t.Fatal("the same instance announced again (a restarted registry) must keep its generation")
	}
	if d := g.launched(200, ":1.40"); d <= c || g.of(200, ":1.40") != d {
		t.Fatal("a relaunch at the same pid must get a new generation")
	}
	e := g.launched(200, "")
	if e <= c || g.of(200, ":1.41") != e {
		t.Fatal("a launch the backend does not name starts a generation its instance adopts")
	}
}

// TestStoreQuotaPerOwner: one owner's 600 snapshots evict only its own oldest; another's
// snapshot stays, and is refused to the first owner (PERMISSION_DENIED) but not to an admin.
// A snapshot of no one (a wait's listing) becomes the first identity's that uses it.
func TestStoreQuotaPerOwner(t *testing.T) {
	st := NewStore(DefaultStoreLimits(), func() time.Time { return time.Unix(1000, 0) })
	mine := snapshotOf("s_agent", 10, 10)
	mine.Owner = "agent"
	st.Put(mine)
	for i := range 600 {
		s := snapshotOf(fmt.Sprint("s_", i), 10, 10)
		s.Owner = "hostile"
		st.Put(s)
	}
	agent := model.WithOwner(t.Context(), model.Owner{Name: "agent"})
	hostile := model.WithOwner(t.Context(), model.Owner{Name: "hostile"})
	if _, err := st.GetFor(agent, "s_agent"); err != nil {
		t.Fatalf("the agent's snapshot after 600 of another's: %v", err)
	}
	if n, _ := st.Stats(); n != 1+DefaultStoreLimits().MaxCountPerOwner {
		t.Fatalf("the store holds %d, want the agent's 1 and the other's quota %d", n, DefaultStoreLimits().MaxCountPerOwner)
	}
	if _, err := st.GetFor(hostile, "s_599"); err != nil {
		t.Fatalf("the newest of its own: %v", err)
	}
	if _, err := st.GetFor(hostile, "s_0"); model.CodeOf(err) != model.CodeSnapshotExpired {
		t.Fatalf("its own oldest: %v, want SNAPSHOT_EXPIRED", err)
	}
	if _, err := st.GetFor(hostile, "s_agent"); model.CodeOf(err) != model.CodePermissionDenied {
		t.Fatalf("another's snapshot: %v, want PERMISSION_DENIED", err)
	}
	if _, err := st.GetFor(model.WithOwner(t.Context(), model.Owner{Name: "owner", All: true}), "s_agent"); err != nil {
		t.Fatalf("an admin: %v", err)
	}
	waits := snapshotOf("s_wait", 1, 1)
	st.Put(waits)
	if _, err := st.GetFor(agent, "s_wait"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetFor(hostile, "s_wait"); model.CodeOf(err) != model.CodePermissionDenied {
		t.Fatalf("a wait's snapshot the agent used: %v, want PERMISSION_DENIED to another", err)
	}
}

// TestStoreFullEvictsTheBiggestOwner: owners within their quotas that fill the store together
// lose the oldest of the one that holds the most, never the small one's.
func TestStoreFullEvictsTheBiggestOwner(t *testing.T) {
	st := NewStore(StoreLimits{TTL: time.Hour, MaxCount: 10, MaxBytes: 1 << 30, MaxCountPerOwner: 6}, func() time.Time { return time.Unix(1000, 0) })
	small := snapshotOf("s_small", 1, 1)
	small.Owner = "small"
	st.Put(small)
	for i := range 20 {
		s := snapshotOf(fmt.Sprint("s_", i), 1, 1)
		s.Owner = fmt.Sprint("big", i%2)
		st.Put(s)
	}
	if _, err := st.Get("s_small"); err != nil {
		t.Fatalf("the small owner's snapshot: %v", err)
	}
	if n, _ := st.Stats(); n != 10 {
		t.Fatalf("the store holds %d, want 10", n)
	}
}
