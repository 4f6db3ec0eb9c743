package observer

import "sync"

// generations assigns each app instance a generation: a number that grows with every new
// instance seen, so that a relaunched app or a reused pid never matches an older snapshot.
type generations struct {
	mu    sync.Mutex
	last  uint64
	byPID map[int]*genEntry
}

type genEntry struct {
	gen      uint64
	instance string // "" until the backend names the instance
}

func newGenerations() *generations { return &generations{byPID: map[int]*genEntry{}} }

// of returns the generation of the app instance (pid, instance), creating one when the pid is
// new or its instance changed.
func (g *generations) of(pid int, instance string) uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.byPID[pid]
	switch {
	case !ok:
		g.last++
		e = &genEntry{gen: g.last, instance: instance}
		g.byPID[pid] = e
	case e.instance == "":
		e.instance = instance
	case instance != "" && e.instance != instance:
		g.last++
		e.gen, e.instance = g.last, instance
	}
	return e.gen
}

// launched starts a new generation for the launch of pid as instance ("" when the backend does
// not say), unless it is the instance known already: a launch announced again (a restarted
// registry) is no new instance. An unnamed instance adopts the new generation.
func (g *generations) launched(pid int, instance string) uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if e, ok := g.byPID[pid]; ok && (e.instance == "" || e.instance == instance) {
		if e.instance == "" {
			e.instance = instance
		}
		return e.gen // already fresh (the launch was seen first through Apps), or the same instance
	}
	g.last++
	g.byPID[pid] = &genEntry{gen: g.last, instance: instance}
	return g.last
}
