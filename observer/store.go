package observer

import (
	"container/list"
	"context"
	"sync"
	"time"

	"github.com/axbus/axbus/model"
)

// StoreLimits bound the snapshot store, as a whole and for each owner (the identity whose
// request made the snapshots): an owner past its own limits evicts its own least recently used,
// and a store past its limits evicts those of the owner that holds the most, so that no identity
// evicts the snapshots of one that holds less.
type StoreLimits struct {
	TTL      time.Duration // a snapshot's lifetime; 10 minutes
	MaxCount int           // snapshots kept at most
	MaxBytes int           // estimated bytes kept at most
	// MaxCountPerOwner and MaxBytesPerOwner bound one owner's (0: only the store's limits).
	MaxCountPerOwner int
	MaxBytesPerOwner int
}

// DefaultStoreLimits: 10 minutes, 512 snapshots and 128 MiB in all, 128 snapshots and 32 MiB
// for one identity (a quarter: four identities at their limits fill the store).
func DefaultStoreLimits() StoreLimits {
	return StoreLimits{TTL: 10 * time.Minute, MaxCount: 512, MaxBytes: 128 << 20, MaxCountPerOwner: 128, MaxBytesPerOwner: 32 << 20}
}

// Store keeps snapshots for their lifetime, bounded by count and bytes with least-recently-used
// eviction, per owner and in all (StoreLimits). It is safe for concurrent use.
type Store struct {
	mu      sync.Mutex
	limits  StoreLimits
	now     func() time.Time
	shelves map[string]*shelf // by owner
	byID    map[string]*list.Element
	count   int
	bytes   int
}

// shelf is one owner's snapshots, front = most recently used; values are *Snapshot.
type shelf struct {
	lru   *list.List
	bytes int
}

// NewStore returns an empty store. now may be nil for the wall clock.
func NewStore(limits StoreLimits, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{limits: limits, now: now, shelves: map[string]*shelf{}, byID: map[string]*list.Element{}}
}

// Put stores s under its Owner, evicting least recently used snapshots beyond the limits: its
// owner's first, then the biggest owner's. A snapshot bigger than the whole byte bound is still
// kept alone, so that the caller can act on it.
func (st *Store) Put(s *Snapshot) {
	s.bytes = s.size()
	st.mu.Lock()
	defer st.mu.Unlock()
	if old, ok := st.byID[s.ID]; ok {
		st.remove(old)
	}
	st.shelve(s)
}

// shelve puts s on its owner's shelf and evicts what the limits leave no room for, never s.
func (st *Store) shelve(s *Snapshot) {
	sh := st.shelves[s.Owner]
	if sh == nil {
		sh = &shelf{lru: list.New()}
		st.shelves[s.Owner] = sh
	}
	st.byID[s.ID] = sh.lru.PushFront(s)
	sh.bytes += s.bytes
	st.count++
	st.bytes += s.bytes
	l := st.limits
	for sh.lru.Len() > 1 && (l.MaxCountPerOwner > 0 && sh.lru.Len() > l.MaxCountPerOwner || l.MaxBytesPerOwner > 0 && sh.bytes > l.MaxBytesPerOwner) {
		st.remove(sh.lru.Back())
	}
	for st.count > 1 && (st.count > l.MaxCount || st.bytes > l.MaxBytes) {
		victim := st.biggest(s)
		if victim == nil {
			return
		}
		st.remove(victim)
	}
}

// biggest is the least recently used snapshot of the owner that holds the most bytes (then
// the most snapshots), other than keep.
func (st *Store) biggest(keep *Snapshot) *list.Element {
	var best *shelf
	for _, sh := range st.shelves {
		n := sh.lru.Len()
		if sh.lru.Back() != nil && sh.lru.Back().Value.(*Snapshot) == keep {
			n-- // keep is its owner's only candidate left when it is the back
		}
		if n == 0 {
			continue
		}
		if best == nil || sh.bytes > best.bytes || sh.bytes == best.bytes && sh.lru.Len() > best.lru.Len() {
			best = sh
		}
	}
	if best == nil {
		return nil
	}
	return best.lru.Back()
}

// Get returns a live snapshot, whoever owns it, and marks it used; an unknown or expired id
// gives SNAPSHOT_EXPIRED. Requests of identities use GetFor.
func (st *Store) Get(id string) (*Snapshot, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.live(id)
}

func (st *Store) live(id string) (*Snapshot, error) {
	if e, ok := st.byID[id]; ok {
		s := e.Value.(*Snapshot)
		if st.now().Sub(s.Created) < st.limits.TTL {
			st.shelves[s.Owner].lru.MoveToFront(e)
			return s, nil
		}
		st.remove(e)
	}
	return nil, model.Errorf(model.CodeSnapshotExpired,
		"Snapshots live 10 minutes and each identity's newest are kept; inspect again and use the new snapshot id.",
		"snapshot %q is unknown or expired", id).With("snapshot_id", id)
}

// GetFor is Get for ctx's requester (OwnerOf): its own snapshots, any for an admin or the
// daemon's own work. A snapshot of no one yet (a wait's listing) becomes the requester's; one
// of another identity is PERMISSION_DENIED.
func (st *Store) GetFor(ctx context.Context, id string) (*Snapshot, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s, err := st.live(id)
	if err != nil {
		return nil, err
	}
	o, ok := model.OwnerOf(ctx)
	switch {
	case !ok || o.All || s.Owner == o.Name:
		return s, nil
	case s.Owner == "":
		st.claim(s, o.Name)
		return s, nil
	}
	return nil, model.Errorf(model.CodePermissionDenied, "Use the snapshots of your own inspections and waits; inspect the window yourself.",
		"snapshot %s is another identity's", id).With("snapshot_id", id)
}

// Claim makes snapshot id, when it is no one's yet (a wait's listing, made by the daemon's
// watcher), the snapshot of name: what the wait's reply hands to its requester.
func (st *Store) Claim(id, name string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e, ok := st.byID[id]; ok && name != "" && e.Value.(*Snapshot).Owner == "" {
		st.claim(e.Value.(*Snapshot), name)
	}
}

func (st *Store) claim(s *Snapshot, name string) {
	st.remove(st.byID[s.ID])
	s.Owner = name
	st.shelve(s)
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
	for _, sh := range st.shelves {
		for e := sh.lru.Back(); e != nil; {
			prev := e.Prev()
			if now.Sub(e.Value.(*Snapshot).Created) >= st.limits.TTL {
				st.remove(e)
			}
			e = prev
		}
	}
}

// Stats reports the number of snapshots and their estimated bytes.
func (st *Store) Stats() (count, bytes int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.count, st.bytes
}

func (st *Store) remove(e *list.Element) {
	s := e.Value.(*Snapshot)
	sh := st.shelves[s.Owner]
	sh.lru.Remove(e)
	sh.bytes -= s.bytes
	if sh.lru.Len() == 0 {
		delete(st.shelves, s.Owner)
	}
	delete(st.byID, s.ID)
	st.count--
	st.bytes -= s.bytes
}
