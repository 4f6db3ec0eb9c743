package observer

import (
	"container/list"
	"sync"
	"time"
)

// StoreLimits bound the snapshot store.
type StoreLimits struct {
	TTL      time.Duration // a snapshot's lifetime; 10 minutes
	MaxCount int           // snapshots kept at most
	MaxBytes int           // estimated bytes kept at most
}

// DefaultStoreLimits: 10 minutes, 512 snapshots, 128 MiB.
func DefaultStoreLimits() StoreLimits {
	return StoreLimits{TTL: 10 * time.Minute, MaxCount: 512, MaxBytes: 128 << 20}
}

// Store keeps snapshots for their lifetime, bounded by count and bytes with least-recently-used
// eviction. It is safe for concurrent use.
type Store struct {
	mu     sync.Mutex
	limits StoreLimits
	now    func() time.Time
	lru    *list.List // front = most recently used; values are *Snapshot
	byID   map[string]*list.Element
	bytes  int
}

// NewStore returns an empty store. now may be nil for the wall clock.
func NewStore(limits StoreLimits, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{limits: limits, now: now, lru: list.New(), byID: map[string]*list.Element{}}
}

// Put stores s, evicting the least recently used snapshots beyond the limits. A snapshot
// bigger than the whole byte bound is still kept alone, so that the caller can act on it.
func (st *Store) Put(s *Snapshot) {
	s.bytes = s.size()
	st.mu.Lock()
	defer st.mu.Unlock()
	if old, ok := st.byID[s.ID]; ok {
		st.remove(old)
	}
	st.byID[s.ID] = st.lru.PushFront(s)
	st.bytes += s.bytes
	for st.lru.Len() > 1 && (st.lru.Len() > st.limits.MaxCount || st.bytes > st.limits.MaxBytes) {
		st.remove(st.lru.Back())
	}
}

// Get returns a live snapshot and marks it used; an unknown or expired id gives SNAPSHOT_EXPIRED.
func (st *Store) Get(id string) (*Snapshot, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e, ok := st.byID[id]; ok {
		s := e.Value.(*Snapshot)
		if st.now().Sub(s.Created) < st.limits.TTL {
			st.lru.MoveToFront(e)
			return s, nil
		}
		st.remove(e)
	}
	return nil, Errorf(CodeSnapshotExpired,
		"Snapshots live 10 minutes and the newest are kept; inspect again and use the new snapshot id.",
		"snapshot %q is unknown or expired", id).With("snapshot_id", id)
}

// Drop removes a snapshot, e.g. one made for a refused scope.
func (st *Store) Drop(id string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e, ok := st.byID[id]; ok {
		st.remove(e)
	}
}

// Sweep removes expired snapshots; the daemon calls it now and then.
func (st *Store) Sweep() {
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.now()
	for e := st.lru.Back(); e != nil; {
		prev := e.Prev()
		if now.Sub(e.Value.(*Snapshot).Created) >= st.limits.TTL {
			st.remove(e)
		}
		e = prev
	}
}

// Stats reports the number of snapshots and their estimated bytes.
func (st *Store) Stats() (count, bytes int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.lru.Len(), st.bytes
}

func (st *Store) remove(e *list.Element) {
	s := st.lru.Remove(e).(*Snapshot)
	delete(st.byID, s.ID)
	st.bytes -= s.bytes
}
